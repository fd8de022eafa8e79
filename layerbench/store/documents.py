"""What the results database reads from a ladder's JSON document, whatever version wrote it.

    1, 2: one measurement per rung (``requests_per_s``)
    3:    ``repeats``, each trial's ``requests_per_s``

A document of a version this layerbench does not know is refused with its version named.
"""

from dataclasses import dataclass
from typing import Any

from layerbench.errors import ConfigError

KNOWN_VERSIONS = (1, 2, 3)


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
    description: str
    rungs: tuple[RungTrials, ...]


def read_ladder_document(document: Any) -> RunSummary:
    if not isinstance(document, dict) or "rungs" not in document:
        raise ConfigError("not a layerbench ladder document (no rungs)")
    version = document.get("version")
    if version not in KNOWN_VERSIONS:
        known = ", ".join(str(v) for v in KNOWN_VERSIONS)
        raise ConfigError(f"ladder document version {version!r}; this layerbench reads {known}")
    rungs = tuple(_rung(rung, version) for rung in document["rungs"])
    return RunSummary(
        kind="ladder",
        started_at=document.get("started_at"),
        finished_at=document.get("finished_at"),
        interrupted=bool(document.get("interrupted")),
        description=_describe(document.get("options") or {}),
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
    parts.append(str(options.get("server") or "gunicorn"))
    if options.get("concurrency") is not None:
        parts.append(f"c={options['concurrency']}")
    if options.get("repeats") is not None:
        parts.append(f"x{options['repeats']}")
    return " ".join(parts)
