"""A matrix's JSON document read back into a :class:`MatrixResult`, whatever version wrote it
(the versions: :mod:`layerbench.matrix.matrix_result`):

    1: one measurement per cell, its figures and its ``load``
    2: ``repeats``, each trial's figures; the cell's own are its median trial's
    3: the application under test, ``app`` per column (before it: the bare application)
    4: ``representative_trial`` and ``figures``; every version reads back by the one rule,
       its req/s the median of its trials' (:mod:`layerbench.stats.median`)
    5: ``vs_first`` (computed again from the trials, not read) and ``until_decided``
    6: per cell ``profile`` (``matrix --profile``)

A document of a version this layerbench does not know is refused with its version named.
"""

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Annotated

from layerbench.errors import ConfigError
from layerbench.matrix.matrix_result import MATRIX_JSON_VERSION, Cell, ColumnInfo, MatrixResult
from layerbench.profile.rung_profile import RungProfile
from layerbench.results.load_result import Count
from layerbench.results.paired_verdict import read_looks
from layerbench.results.saved_trials import read_trials
from layerbench.results.status import Status
from layerbench.typed_documents import Bounds, as_json, decode, decode_at

KNOWN_MATRIX_VERSIONS = tuple(range(1, MATRIX_JSON_VERSION + 1))
# A recorded setting: what --set takes.
Scalar = str | bool | int | float | None
# At most this many cells: 100 columns by 100 levels.
MAX_CELLS = 10_000


@dataclass(frozen=True)
class ColumnRecord:
    """A column as the document records it."""

    label: str
    server: str | None = None
    rung: str | None = None
    app: str | None = None  # version 3: before it, the bare application
    url: str | None = None
    settings: dict[str, dict[str, Scalar]] | None = None
    versions: dict[str, str] | None = None


@dataclass(frozen=True)
class CellHead:
    """What a cell says of itself; its trials are read by
    :func:`~layerbench.results.saved_trials.read_trials`."""

    column: str
    row: Count
    concurrency: Count
    status: Status = Status.OK
    message: str | None = None


@dataclass(frozen=True)
class MatrixRecord:
    """A matrix's document, every version, as far as this reader reads it."""

    version: int
    cells: Annotated[tuple[Mapping[str, object], ...], Bounds(most=MAX_CELLS)]  # read below
    started_at: str | None = None
    finished_at: str | None = None
    interrupted: bool | None = None
    options: Mapping[str, object] | None = None  # kept as recorded, read by matrix_options
    conditions: Mapping[str, object] | None = None  # kept as recorded, read by measured_under
    columns: tuple[ColumnRecord, ...] | None = None
    served: Mapping[str, object] | None = None  # served cost's document, read by served/
    until_decided: object = None  # read by paired_verdict.read_looks


def read_matrix(document: Mapping[str, object]) -> MatrixResult:
    version = document.get("version")
    if version not in KNOWN_MATRIX_VERSIONS:
        known = ", ".join(str(v) for v in KNOWN_MATRIX_VERSIONS)
        raise ConfigError(f"matrix document version {version!r}; this layerbench reads {known}")
    try:
        record = decode(MatrixRecord, document, "the matrix")
        heads = [
            decode_at(CellHead, cell, f"the matrix: cells[{i}]")
            for i, cell in enumerate(record.cells)
        ]
    except ConfigError as error:
        raise ValueError(str(error)) from None  # a wrong field, as the reader says of each
    result = MatrixResult(
        options=as_json(record.options or {}),
        conditions=as_json(record.conditions or {}),
        started_at=record.started_at or "",
        columns=[_column(column) for column in record.columns or ()],
        cells=[_cell(head, cell) for head, cell in zip(heads, record.cells, strict=True)],
        finished_at=record.finished_at,
        interrupted=bool(record.interrupted),
        served=dict(record.served or {}),
        until_decided=read_looks(record.until_decided),
    )
    try:  # their fields checked as every reader reads them
        result.asked, result.measured_under  # noqa: B018
    except ConfigError as error:
        raise ValueError(str(error)) from None
    return result


def _column(column: ColumnRecord) -> ColumnInfo:
    return ColumnInfo(
        label=column.label,
        server=column.server or "",
        rung=column.rung or "",
        app=column.app or "bare",
        url=column.url,
        settings=dict(column.settings or {}),
        versions=dict(column.versions or {}),
    )


def _cell(head: CellHead, cell: Mapping[str, object]) -> Cell:
    return Cell(
        column=head.column,
        row=head.row,
        concurrency=head.concurrency,
        status=head.status,
        message=head.message,
        trials=read_trials(cell),
        profile=_profile(head, cell.get("profile")),
    )


def _profile(head: CellHead, document: object) -> RungProfile | None:
    """A cell's stored profile (version 6; none before); a malformed one names its cell."""
    if document is None:
        return None
    where = f"the matrix: the cell {head.column} c={head.concurrency}: profile"
    try:
        return RungProfile.from_dict(document, where)
    except ConfigError as error:
        raise ValueError(str(error)) from None
