"""Why a run of the load generator completed no request, from what it counted: one line for
a matrix or ladder cell instead of the generator's bare "no request completed".

The generator counts the requests that ended (completed or failed, by kind and by ab's
class); a request still connecting or waiting for its answer when the time limit falls is not
counted, so with none ended every connection was still busy at the end.
"""

from collections.abc import Mapping
from dataclasses import dataclass

from layerbench.typed_documents import decode


@dataclass(frozen=True)
class AskedOf:
    """What the load generator was asked, as its document says."""

    concurrency: int | None = None
    duration_s: float | None = None
    timeout_s: float | None = None


@dataclass(frozen=True)
class Unanswered:
    """What this reason reads of the load generator's document (every key optional)."""

    options: AskedOf | None = None
    requests_failed: int | None = None
    errors_by_kind: dict[str, int] | None = None
    # Failures by stage: connect, receive, exceptions.
    failures: dict[str, int] | None = None


def _count(number: int) -> str:
    return f"{number:,}"


def no_response_reason(document: Mapping[str, object]) -> str:
    """One line: the trial, then how its requests ended or that none did."""
    read = decode(Unanswered, document, "the load generator's document")
    asked = read.options or AskedOf()
    concurrency = asked.concurrency or 0
    duration = asked.duration_s
    trial = f"{duration:g} s trial" if duration else "run"
    head = f"no request completed in the {trial} at c={_count(concurrency)}"
    if asked.timeout_s:
        head += f" (request timeout {asked.timeout_s:g} s)"
    failed = read.requests_failed or 0
    if failed == 0:
        return (
            f"{head}: none failed either, so all {_count(concurrency)} connections were still "
            "connecting or waiting for an answer when the time ran out"
        )
    kinds = read.errors_by_kind or {}
    by_kind = ", ".join(
        f"{kind} {_count(count)}" for kind, count in sorted(kinds.items(), key=lambda k: -k[1])
    )
    stages = read.failures or {}
    where = ", ".join(
        f"{_count(stages[stage])} {label}"
        for stage, label in (
            ("connect", "connecting"),
            ("receive", "before the answer ended"),
            ("exceptions", "with unreadable answers"),
        )
        if stages.get(stage)
    )
    return f"{head}: {_count(failed)} failed ({by_kind}; {where})"
