"""What a matrix run produced: one cell per column and concurrency, every figure with its unit
in its name.

``MATRIX_JSON_VERSION`` is the version of the document ``to_dict`` produces; bump it, and say
what changed here, whenever a field changes meaning or goes away.

    1: columns (label, server, rung, settings used, versions) and cells (req/s, ms/req, p50,
       p99, p99.9, errors by kind, client-bound, roles' CPU and memory, the raw load result)
    2: options ``repeats``; per cell, as a ladder's rung has them, ``repeats`` (each trial's
       req/s, latency, errors, roles, the rest of the machine's CPU), ``spread`` (median, CV,
       bootstrap 95 % interval of req/s) and ``noisy``; the cell's own figures are its median
       trial's (with one repeat, its only one: a version 1 document reads as one trial a cell).
       Added since, without a version change: per cell and per trial ``usage_interval_s``, as a
       ladder's rung has it
    3: the application under test: per column and per cell ``app`` (a column's ``app=NAME``);
       a column whose application does not answer its rung has cells ``not applicable``
    4: a cell's ``requests_per_s`` is the median of its trials', ``representative_trial`` the
       trial whose other figures it shows, and ``figures`` says so, as a ladder's version 5
    5: per cell ``vs_first``, the paired verdict of its req/s against the first column's at its
       level (:mod:`layerbench.results.paired_verdict`), and ``until_decided``, as a ladder's
       document has them
    6: per cell ``profile`` (``matrix --profile``; null without): its workers' samples over
       its trials, as a ladder's rung has it (:mod:`layerbench.profile.rung_profile`)
"""

from dataclasses import asdict, dataclass, field
from typing import Any

from layerbench.matrix.matrix_options_record import MatrixOptionsRecord, matrix_options
from layerbench.profile.rung_profile import RungProfile
from layerbench.results.measured_under import MeasuredUnder, measured_under
from layerbench.results.paired_verdict import comparison_dict
from layerbench.results.status import Status
from layerbench.results.trial_dicts import FIGURES, roles_dict, spread_dict, trial_dicts
from layerbench.results.trials import Repeated, Trial
from layerbench.stats.comparison import RungComparison, compare_paired
from layerbench.stats.paired import CONFIDENCE
from layerbench.stats.sequential import LooksMade
from layerbench.typed_documents import JsonObject

MATRIX_JSON_VERSION = 6


@dataclass(frozen=True)
class Cell(Repeated):
    """A server configuration at a concurrency level, over its repeats: its req/s is the median
    of its trials', ``load`` and ``usage`` its representative trial's
    (:mod:`layerbench.stats.median`); ``trials`` holds them all, in the order they ran."""

    column: str
    # Its row: the index of its level in the run's concurrency levels (a level may repeat, to
    # compare a server's first measurement after its start with the next).
    row: int
    concurrency: int
    status: Status
    message: str | None = None
    trials: tuple[Trial, ...] = ()
    # `--profile`: its workers' samples over its trials.
    profile: RungProfile | None = None

    @property
    def errors_by_kind(self) -> dict[str, int]:
        """Failed requests by how they failed, and non-2xx answers by status."""
        return self.load.errors_and_statuses if self.load else {}


@dataclass
class ColumnInfo:
    """A column as it ran: its URL and versions are known once its server is up."""

    label: str
    server: str
    rung: str
    # The application its server runs (frameworks/applications.py).
    app: str = "bare"
    url: str | None = None
    settings: dict[str, dict[str, Any]] = field(default_factory=dict)  # boundary: servers/'s
    versions: dict[str, str] = field(default_factory=dict)


@dataclass
class MatrixResult:
    # The options and conditions as the run recorded them (read through ``asked`` and
    # ``measured_under``), written back as they were.
    options: JsonObject
    conditions: JsonObject
    started_at: str
    columns: list[ColumnInfo] = field(default_factory=list)
    cells: list[Cell] = field(default_factory=list)
    finished_at: str | None = None
    interrupted: bool = False
    # --measure: per column its served cost, or why it has none, and the in-process anchors
    # (layerbench/served/served_table.py's document); empty without.
    served: dict[str, Any] = field(default_factory=dict)  # boundary: served/'s, it reads it
    # `--until-decided`: the looks made, and the confidence of the verdicts.
    until_decided: LooksMade | None = None

    @property
    def asked(self) -> MatrixOptionsRecord:
        return matrix_options(self.options, "the matrix: options")

    @property
    def measured_under(self) -> MeasuredUnder:
        return measured_under(self.conditions, "the matrix: conditions")

    @property
    def confidence(self) -> float:
        """The confidence of its paired verdicts: 95 %, or the last look's."""
        return self.until_decided.confidence if self.until_decided else CONFIDENCE

    @property
    def passes(self) -> int:
        """The passes made: the most trials of a cell."""
        return max((len(cell.trials) for cell in self.cells), default=0)

    @property
    def failed(self) -> bool:
        """A cell not measured, or measured with failed or non-2xx requests."""
        return any(
            cell.status is Status.ERROR or (cell.load is not None and cell.load.errors)
            for cell in self.cells
        )

    def cell(self, column: str, row: int) -> Cell | None:
        for cell in self.cells:
            if cell.column == column and cell.row == row:
                return cell
        return None

    def _app_of(self, cell: Cell) -> str:
        return next((c.app for c in self.columns if c.label == cell.column), "bare")

    @property
    def first_column(self) -> str | None:
        """The column every other is compared with (the seed's tables put the configuration
        compared with first)."""
        return self.columns[0].label if self.columns else None

    def compared_vs_first(self, confidence: float | None = None) -> list[RungComparison | None]:
        """Per cell, its req/s against the first column's cell of its row, paired pass by pass
        (a pass measures every column in turn: trial i of each was measured in pass i;
        :func:`~layerbench.stats.comparison.compare_paired`), its interval at ``confidence``
        (:attr:`confidence` when None). None for the first column's own cells, and where
        either has no trial."""
        level = self.confidence if confidence is None else confidence
        first = self.first_column
        compared: list[RungComparison | None] = []
        for cell in self.cells:
            reference = self.cell(first, cell.row) if first is not None else None
            if reference is None or cell.column == first or not cell.trials:
                compared.append(None)
                continue
            compared.append(
                compare_paired(
                    f"{cell.column} c={cell.concurrency}",
                    [trial.load.requests_per_s for trial in reference.trials],
                    [trial.load.requests_per_s for trial in cell.trials],
                    confidence=level,
                )
            )
        return compared

    def to_dict(self) -> JsonObject:
        vs_first = [comparison_dict(c, self.confidence) for c in self.compared_vs_first()]
        cells = [
            {**_cell_dict(cell, self._app_of(cell)), "vs_first": compared}
            for cell, compared in zip(self.cells, vs_first, strict=True)
        ]
        document: JsonObject = {
            "version": MATRIX_JSON_VERSION,
            "started_at": self.started_at,
            "finished_at": self.finished_at,
            "interrupted": self.interrupted,
            "options": self.options,
            "conditions": self.conditions,
            "figures": FIGURES,
            "columns": [
                {
                    "label": column.label,
                    "server": column.server,
                    "rung": column.rung,
                    "app": column.app,
                    "url": column.url,
                    "settings": column.settings,
                    "versions": column.versions,
                }
                for column in self.columns
            ],
            "cells": cells,
            **({"served": self.served} if self.served else {}),
        }
        if self.until_decided is not None:
            document["until_decided"] = asdict(self.until_decided)
        return document


def _cell_dict(cell: Cell, app: str) -> JsonObject:
    requests = cell.load.requests_completed if cell.load else 0
    return {
        "column": cell.column,
        "app": app,
        "row": cell.row,
        "concurrency": cell.concurrency,
        "status": cell.status.value,
        "message": cell.message,
        "requests_per_s": cell.requests_per_s,
        "representative_trial": cell.representative_index,
        "ms_per_request": cell.ms_per_request,
        "latency_p50_ms": cell.latency_ms("p50"),
        "latency_p99_ms": cell.latency_ms("p99"),
        "latency_p99_9_ms": cell.latency_ms("p99_9"),
        "errors": cell.load.errors if cell.load else None,
        "errors_by_kind": cell.errors_by_kind,
        "client_bound": cell.client_bound,
        "roles": roles_dict(cell.usage, requests),
        "sampler_cpu_percent": cell.usage.sampler_cpu_percent if cell.usage else None,
        "usage_interval_s": cell.usage.interval_s if cell.usage else None,
        "load": cell.load.document if cell.load else None,
        "noisy": cell.noisy,
        "spread": spread_dict(cell.spread),
        "repeats": trial_dicts(cell.trials),
        "profile": cell.profile.to_dict() if cell.profile is not None else None,
    }


def matrix_memory_items(result: MatrixResult) -> list[tuple[str, Repeated]]:
    """A level the run measured twice (the first measurement after a start, then the next)
    names which: ``c=100 (2)``."""
    levels = [cell.concurrency for cell in {cell.row: cell for cell in result.cells}.values()]
    items: list[tuple[str, Repeated]] = []
    for cell in result.cells:
        if cell.status is not Status.OK:
            continue
        name = f"{cell.column} c={cell.concurrency}"
        if levels.count(cell.concurrency) > 1:
            rows = sorted({c.row for c in result.cells if c.concurrency == cell.concurrency})
            name += f" ({rows.index(cell.row) + 1})"
        items.append((name, cell))
    return items
