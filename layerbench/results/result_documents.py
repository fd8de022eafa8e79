"""A run's JSON document read back into its result, whatever kind and version wrote it, and
what the results database keeps of it for its queries.

A ladder's (or a mix's) document has ``rungs`` (:mod:`layerbench.results.ladder_document`), a
matrix's ``cells`` (:mod:`layerbench.results.matrix_document`): this is the one place that
tells them apart. In the database a matrix's cells are its rungs, each named after its column
and concurrency (``gunicorn c=100``; a level given twice adds its place, ``#2``).

A document whose fields are not what its version says (edited by hand) is refused with the
field named.
"""

from dataclasses import dataclass
from typing import Any

from layerbench.errors import ConfigError, LoadGeneratorError
from layerbench.results.ladder_document import read_ladder
from layerbench.results.ladder_result import LadderResult
from layerbench.results.matrix_document import read_matrix
from layerbench.results.matrix_result import Cell, MatrixResult
from layerbench.results.trials import Trial


@dataclass(frozen=True)
class RungTrials:
    # What the rung is shown and compared as: its name, or ``APP RUNG`` in a run over several
    # applications (a matrix's cell: ``COLUMN c=N``).
    rung: str
    status: str
    # req/s of each trial, in the order they ran (none when the rung was not measured).
    rates: tuple[float, ...]
    # The application that answered it ("": not recorded, as in a matrix's cell, whose column
    # names its application, or a run stored before the results database had the column).
    app: str = ""
    # The rung's own name, without its application ("": the same as ``rung``).
    name: str = ""

    @property
    def rung_name(self) -> str:
        return self.name or self.rung


@dataclass(frozen=True)
class RunSummary:
    kind: str
    started_at: str | None
    finished_at: str | None
    interrupted: bool
    # The server (a matrix's columns), the settings chosen with --set ("" for the defaults),
    # and the rest of what was asked: "embedded c=10 x3", "template c=10,100".
    server: str
    settings: str
    description: str
    rungs: tuple[RungTrials, ...]


def read_result(document: Any) -> LadderResult | MatrixResult:
    """A ladder's, a mix's or a matrix's document, told apart by its shape."""
    if not isinstance(document, dict) or not ("rungs" in document or "cells" in document):
        raise ConfigError("not a layerbench ladder or matrix document (no rungs, no cells)")
    try:
        if "cells" in document and "rungs" not in document:
            return read_matrix(document)
        return read_ladder(document)
    except (KeyError, TypeError, ValueError, AttributeError, LoadGeneratorError) as error:
        what = f"no {error}" if isinstance(error, KeyError) else str(error)
        raise ConfigError(f"a layerbench document with a wrong field: {what}") from None


def read_run_document(document: Any) -> RunSummary:
    """What the database keeps of a document: its kind, times, description and rates."""
    return summarize(read_result(document))


def summarize(result: LadderResult | MatrixResult) -> RunSummary:
    options = result.options
    if isinstance(result, MatrixResult):
        levels = [int(level) for level in options.get("concurrency") or ()]
        return RunSummary(
            kind="matrix",
            started_at=result.started_at or None,
            finished_at=result.finished_at,
            interrupted=result.interrupted,
            server=", ".join(column.label for column in result.columns),
            settings=format_settings(options.get("settings") or {}),
            description=_describe_matrix(options),
            rungs=tuple(_cell(cell, levels) for cell in result.cells),
        )
    return RunSummary(
        kind="mix" if options.get("mix") else "ladder",
        started_at=result.started_at or None,
        finished_at=result.finished_at,
        interrupted=result.interrupted,
        server=str(options.get("server") or "gunicorn"),
        settings=format_settings(options.get("settings") or {}),
        description=_describe(options),
        rungs=tuple(
            RungTrials(
                result.label(rung), rung.status.value, _rates(rung.trials), rung.app, rung.rung
            )
            for rung in result.rungs
        ),
    )


def labelled(name: str, app: str, several_apps: bool) -> str:
    """How a rung is shown and compared: ``APP RUNG`` in a run over several applications (as
    :meth:`LadderResult.label` names it)."""
    return f"{app} {name}" if several_apps and app else name


def _rates(trials: tuple[Trial, ...]) -> tuple[float, ...]:
    return tuple(trial.load.requests_per_s for trial in trials)


def _cell(cell: Cell, levels: list[int]) -> RungTrials:
    """A cell as a rung of its trials: ``COLUMN c=N``, and ``#K`` for the K-th of a level given
    more than once."""
    name = f"{cell.column} c={cell.concurrency}"
    if levels.count(cell.concurrency) > 1:
        name += f" #{levels[: cell.row + 1].count(cell.concurrency)}"
    return RungTrials(name, cell.status.value, _rates(cell.trials))


def _describe_matrix(options: dict[str, Any]) -> str:
    levels = ",".join(str(level) for level in options.get("concurrency") or ())
    return f"{options.get('rung', 'string')} c={levels}"


def format_settings(book: dict[str, Any]) -> str:
    """``SECTION.KEY=VALUE`` of every setting of a settings book, space-separated."""
    return " ".join(
        f"{section}.{key}={value}"
        for section, values in sorted(book.items())
        for key, value in sorted(dict(values).items())
    )


def _describe(options: dict[str, Any]) -> str:
    parts = ["--full" if options.get("full") else "embedded"]
    if options.get("concurrency") is not None:
        parts.append(f"c={options['concurrency']}")
    if options.get("repeats") is not None:
        parts.append(f"x{options['repeats']}")
    apps = [str(app) for app in options.get("apps") or ()]
    if apps and apps != ["bare"]:
        parts.append(f"app={','.join(apps)}")
    return " ".join(parts)
