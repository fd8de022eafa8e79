"""A matrix's JSON document read back into a :class:`MatrixResult`, whatever version wrote it
(the versions: :mod:`layerbench.results.matrix_result`):

    1: one measurement per cell, its figures and its ``load``
    2: ``repeats``, each trial's figures; the cell's own are its median trial's
    3: the application under test, ``app`` per column (before it: the bare application)
    4: ``representative_trial`` and ``figures``; every version reads back by the one rule,
       its req/s the median of its trials' (:mod:`layerbench.stats.median`)
    5: ``vs_first`` (computed again from the trials, not read) and ``until_decided``

A document of a version this layerbench does not know is refused with its version named.
"""

from typing import Any

from layerbench.errors import ConfigError
from layerbench.results.matrix_result import MATRIX_JSON_VERSION, Cell, ColumnInfo, MatrixResult
from layerbench.results.paired_verdict import read_looks
from layerbench.results.saved_trials import read_trials
from layerbench.results.status import Status

KNOWN_MATRIX_VERSIONS = tuple(range(1, MATRIX_JSON_VERSION + 1))


def read_matrix(document: dict[str, Any]) -> MatrixResult:
    version = document.get("version")
    if version not in KNOWN_MATRIX_VERSIONS:
        known = ", ".join(str(v) for v in KNOWN_MATRIX_VERSIONS)
        raise ConfigError(f"matrix document version {version!r}; this layerbench reads {known}")
    return MatrixResult(
        options=dict(document.get("options") or {}),
        conditions=dict(document.get("conditions") or {}),
        started_at=str(document.get("started_at") or ""),
        columns=[_column(column) for column in document.get("columns") or ()],
        cells=[_cell(cell) for cell in document["cells"]],
        finished_at=document.get("finished_at"),
        interrupted=bool(document.get("interrupted")),
        served=dict(document.get("served") or {}),
        until_decided=read_looks(document.get("until_decided")),
    )


def _column(column: dict[str, Any]) -> ColumnInfo:
    return ColumnInfo(
        label=str(column["label"]),
        server=str(column.get("server") or ""),
        rung=str(column.get("rung") or ""),
        app=str(column.get("app") or "bare"),
        url=column.get("url"),
        settings=dict(column.get("settings") or {}),
        versions=dict(column.get("versions") or {}),
    )


def _cell(cell: dict[str, Any]) -> Cell:
    return Cell(
        column=str(cell["column"]),
        row=int(cell["row"]),
        concurrency=int(cell["concurrency"]),
        status=Status(cell.get("status", "ok")),
        message=cell.get("message"),
        trials=read_trials(cell),
    )
