"""The matrix's documents as the results database knows them: what tells one apart (``cells``
and no ``rungs``) and what the database keeps of it (:mod:`layerbench.store.run_summary`): its
cells as rungs, ``COLUMN c=N``. Registered by the package's ``__init__``, so that importing any
part of the matrix makes its documents readable by the store."""

from collections.abc import Mapping

from layerbench.matrix.matrix_document import read_matrix
from layerbench.matrix.matrix_options_record import MatrixOptionsRecord
from layerbench.matrix.matrix_result import Cell, MatrixResult
from layerbench.results.trials import Trial
from layerbench.store.run_summary import RungTrials, RunKind, RunSummary, format_settings
from layerbench.typed_documents import JsonObject


def summarize_matrix(result: MatrixResult) -> RunSummary:
    asked = result.asked
    levels = list(asked.concurrency or ())
    return RunSummary(
        kind="matrix",
        started_at=result.started_at or None,
        finished_at=result.finished_at,
        interrupted=result.interrupted,
        server=", ".join(column.label for column in result.columns),
        settings=format_settings(asked.settings or {}),
        description=_describe_matrix(asked),
        rungs=tuple(_cell(cell, levels) for cell in result.cells),
    )


def _cell(cell: Cell, levels: list[int]) -> RungTrials:
    """A cell as a rung of its trials: ``COLUMN c=N``, and ``#K`` for the K-th of a level given
    more than once."""
    name = f"{cell.column} c={cell.concurrency}"
    if levels.count(cell.concurrency) > 1:
        name += f" #{levels[: cell.row + 1].count(cell.concurrency)}"
    return RungTrials(name, cell.status.value, _rates(cell.trials))


def _rates(trials: tuple[Trial, ...]) -> tuple[float, ...]:
    return tuple(trial.load.requests_per_s for trial in trials)


def _describe_matrix(asked: MatrixOptionsRecord) -> str:
    levels = ",".join(str(level) for level in asked.concurrency or ())
    return f"{asked.rung or 'string'} c={levels}"


def _summarize_document(document: JsonObject) -> RunSummary:
    return summarize_matrix(read_matrix(document))


def _recognises(document: Mapping[str, object]) -> bool:
    return "cells" in document and "rungs" not in document


MATRIX_KIND = RunKind("matrix", "cells", _recognises, _summarize_document)
