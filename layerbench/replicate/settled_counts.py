"""A column's served cost counted settled, for a server whose processes keep changing under the
usual count (Apache with one thread per child forks and ends children as its load moves, so the
two windows of :mod:`layerbench.served.served_windows` never see the same processes): on a fresh
start, left quiet, requests at ``concurrency`` until the server starts no more processes, then
windows of SETTLED_REQUESTS requests at that concurrency until two agree, every process counted
(those started or ended meanwhile included), as a second run after a first is
(:mod:`layerbench.replicate.second_run`). System calls on a native start, instructions on one
under callgrind; each column's counts one after another, the columns in turn. Interrupted
(Ctrl-C, SIGTERM), the count in progress ends at once (its server stopped as the interruption
unwinds) and the counts finished are kept."""

from collections.abc import Callable
from dataclasses import asdict, replace
from pathlib import Path

from layerbench.errors import LayerbenchError
from layerbench.replicate.quiet_server import quiet_processes
from layerbench.replicate.second_run import (
    SecondRun,
    count_second_instructions,
    count_second_syscalls,
)
from layerbench.served.served_columns import CountedTarget
from layerbench.served.served_cost import counted, rung_load
from layerbench.served.served_counting import counting_for
from layerbench.served.served_windows import Windows
from layerbench.typed_documents import JsonObject, encode

SETTLED_REQUESTS = 500


def count_settled(
    target: CountedTarget,
    directory: Path,
    concurrency: int,
    client_cpus: frozenset[int] | None,
) -> SecondRun:
    """One settled count of ``target``'s served cost, per request."""
    deployment = target.deployment
    if deployment is None:
        raise LayerbenchError(target.skipped or "not counted")
    directory.mkdir(parents=True, exist_ok=True)
    directory.chmod(0o755)
    counting = counting_for(target.adapter)
    load = rung_load(target.rung, deployment.base_url, directory, Windows(), client_cpus)
    load = replace(load, concurrency=concurrency)
    with deployment:
        quiet_processes(deployment, counting)
        calls = count_second_syscalls(deployment, counting, load, directory, SETTLED_REQUESTS)
    callgrind = directory / "callgrind"
    with counted(deployment, callgrind, cache_sim=False), deployment:
        quiet_processes(deployment, counting)
        return count_second_instructions(
            deployment, counting, load, callgrind, SETTLED_REQUESTS, calls
        )


def settled_counts(
    targets: list[CountedTarget],
    workdir: Path,
    *,
    concurrency: int,
    counts: int,
    client_cpus: frozenset[int] | None,
    told: Callable[[str], None],
    kept: Callable[[JsonObject], None] = lambda counted: None,
) -> JsonObject:
    """``counts`` settled counts of each target: what a matrix's ``served`` document keeps of
    them, ``settled``, their requests and concurrency and per column each count (``{"error":
    why}`` for one that failed). ``kept`` is handed the counts finished however the counting
    ends (interrupted: those before the one in progress)."""
    found: dict[str, list[JsonObject]] = {target.label: [] for target in targets}
    document: JsonObject = {
        "settled": {"requests": SETTLED_REQUESTS, "concurrency": concurrency, "counts": found}
    }
    try:
        for number in range(1, counts + 1):
            for index, target in enumerate(targets):
                told(f"{target.label}: settled at c={concurrency} (count {number})")
                directory = workdir / "settled" / f"count-{number}" / f"served-{index}"
                try:
                    count = count_settled(target, directory, concurrency, client_cpus)
                    found[target.label].append(encode(asdict(count)))
                except LayerbenchError as error:
                    found[target.label].append({"error": f"not counted: {error}"})
    finally:
        kept(document)
    return document
