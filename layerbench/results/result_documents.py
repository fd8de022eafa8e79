"""What the results database reads from a run's JSON document, whatever version wrote it.

A ladder's (or a mix's) document has ``rungs``:

    1, 2: one measurement per rung (``requests_per_s``)
    3:    ``repeats``, each trial's ``requests_per_s``

A matrix's has ``cells``, each named after its column and concurrency (``gunicorn c=100``; a
level given twice adds its place, ``#2``):

    1: one measurement per cell (``requests_per_s``)
    2: ``repeats``, each trial's ``requests_per_s``

A document of a version this layerbench does not know is refused with its version named, and
one whose fields are not what its version says (edited by hand) with the field named.
"""

from dataclasses import dataclass
from typing import Any

from layerbench.errors import ConfigError

KNOWN_VERSIONS = (1, 2, 3)
KNOWN_MATRIX_VERSIONS = (1, 2)


@dataclass(frozen=True)
class RungTrials:
    rung: str
    status: str
    # req/s of each trial, in the order they ran (none when the rung was not measured).
    rates: tuple[float, ...]


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


def read_run_document(document: Any) -> RunSummary:
    """A ladder's, a mix's or a matrix's document, told apart by its shape."""
    try:
        if isinstance(document, dict) and "cells" in document and "rungs" not in document:
            return read_matrix_document(document)
        return read_ladder_document(document)
    except (KeyError, TypeError, ValueError, AttributeError) as error:
        what = f"no {error}" if isinstance(error, KeyError) else str(error)
        raise ConfigError(f"a layerbench document with a wrong field: {what}") from None


def read_matrix_document(document: dict[str, Any]) -> RunSummary:
    version = document.get("version")
    if version not in KNOWN_MATRIX_VERSIONS:
        known = ", ".join(str(v) for v in KNOWN_MATRIX_VERSIONS)
        raise ConfigError(f"matrix document version {version!r}; this layerbench reads {known}")
    options = document.get("options") or {}
    levels = [int(level) for level in options.get("concurrency") or ()]
    return RunSummary(
        kind="matrix",
        started_at=document.get("started_at"),
        finished_at=document.get("finished_at"),
        interrupted=bool(document.get("interrupted")),
        server=", ".join(str(column["label"]) for column in document.get("columns") or []),
        settings=format_settings(options.get("settings") or {}),
        description=_describe_matrix(options),
        rungs=tuple(_cell(cell, levels) for cell in document["cells"]),
    )


def _cell(cell: dict[str, Any], levels: list[int]) -> RungTrials:
    """A cell as a rung of its trials (one before version 2): ``COLUMN c=N``, and ``#K`` for the
    K-th of a level given more than once."""
    level, row = int(cell["concurrency"]), int(cell["row"])
    name = f"{cell['column']} c={level}"
    if levels.count(level) > 1:
        name += f" #{levels[: row + 1].count(level)}"
    rate = cell.get("requests_per_s")
    if cell.get("repeats"):
        rates = tuple(float(trial["requests_per_s"]) for trial in cell["repeats"])
    else:
        rates = (float(rate),) if rate is not None else ()
    return RungTrials(name, str(cell.get("status", "ok")), rates)


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


def read_ladder_document(document: Any) -> RunSummary:
    if not isinstance(document, dict) or "rungs" not in document:
        raise ConfigError("not a layerbench ladder or matrix document (no rungs, no cells)")
    version = document.get("version")
    if version not in KNOWN_VERSIONS:
        known = ", ".join(str(v) for v in KNOWN_VERSIONS)
        raise ConfigError(f"ladder document version {version!r}; this layerbench reads {known}")
    rungs = tuple(_rung(rung, version) for rung in document["rungs"])
    options = document.get("options") or {}
    return RunSummary(
        kind="mix" if options.get("mix") else "ladder",
        started_at=document.get("started_at"),
        finished_at=document.get("finished_at"),
        interrupted=bool(document.get("interrupted")),
        server=str(options.get("server") or "gunicorn"),
        settings=format_settings(options.get("settings") or {}),
        description=_describe(options),
        rungs=rungs,
    )


def _rung(rung: dict[str, Any], version: int) -> RungTrials:
    if version >= 3 and rung.get("repeats"):
        rates = tuple(float(trial["requests_per_s"]) for trial in rung["repeats"])
    elif rung.get("requests_per_s") is not None:
        rates = (float(rung["requests_per_s"]),)
    else:
        rates = ()
    return RungTrials(str(rung["rung"]), str(rung.get("status", "ok")), rates)


def _describe(options: dict[str, Any]) -> str:
    parts = ["--full" if options.get("full") else "embedded"]
    if options.get("concurrency") is not None:
        parts.append(f"c={options['concurrency']}")
    if options.get("repeats") is not None:
        parts.append(f"x{options['repeats']}")
    return " ".join(parts)
