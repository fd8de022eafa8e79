"""Why a run of the load generator completed no request, from what it counted: one line for
a matrix or ladder cell instead of the generator's bare "no request completed".

The generator counts the requests that ended (completed or failed, by kind and by ab's
class); a request still connecting or waiting for its answer when the time limit falls is not
counted, so with none ended every connection was still busy at the end.
"""

from typing import Any


def _count(number: int) -> str:
    return f"{number:,}"


def no_response_reason(document: dict[str, Any]) -> str:
    """One line: the trial, then how its requests ended or that none did."""
    options = document.get("options") or {}
    concurrency = int(options.get("concurrency") or 0)
    duration = options.get("duration_s")
    trial = f"{duration:g} s trial" if duration else "run"
    timeout = options.get("timeout_s")
    head = f"no request completed in the {trial} at c={_count(concurrency)}"
    if timeout:
        head += f" (request timeout {timeout:g} s)"
    failed = int(document.get("requests_failed") or 0)
    if failed == 0:
        return (
            f"{head}: none failed either, so all {_count(concurrency)} connections were still "
            "connecting or waiting for an answer when the time ran out"
        )
    kinds = document.get("errors_by_kind") or {}
    by_kind = ", ".join(
        f"{kind} {_count(count)}" for kind, count in sorted(kinds.items(), key=lambda k: -k[1])
    )
    stages = document.get("failures") or {}
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
