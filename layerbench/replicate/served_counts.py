"""The served counts a published claim is judged on (:mod:`layerbench.replicate.count_claims`): each
column's served cost counted ``counts`` times, each count on fresh starts of its server
(:func:`~layerbench.served.served_columns.measure_targets`); or, for a claim about the first
requests after a start, what they cost.

The first requests: the usual count sends a warm-up before its windows, and the difference of two
windows takes off whatever does not grow with the requests, so an import made at the first request
(a lazily loaded application) is in neither figure. Here a server is started afresh under callgrind,
left until it is quiet (the same processes, idle: every child done starting,
:mod:`layerbench.replicate.quiet_server`), the counts zeroed, then ``requests`` requests sent at
``concurrency`` (a matrix's first level: the post's) with no warm-up, and every process's count
dumped (those the server forked meanwhile included, and those that ended, by the dump they wrote as
they exited): the instructions over those requests, whatever the server's processes did for them
(the imports included), divided by ``requests``.

What such a count holds is fixed by the server's settings, not by chance, when ``concurrency`` is
more than the server runs at once (Apache's MaxRequestWorkers, one thread per child): connections
then wait while the requests last, so the server starts children up to its most, each serves as it
starts (importing a lazily loaded application at its first request), and every one of them is
counted. At concurrency 1 which child accepts each connection decides how many import: one child may
serve them all. A request may wait behind children importing under callgrind, so each waits up to
FIRST_TIMEOUT_S.

Their system calls are counted the same way, on a native start, by strace attached to every process
(and those they fork) from before the first request to after the last. Idle work over the window (a
timer's tick) is counted too; against an import it is small. The columns are counted at once, each
in a thread on its own server (a count of instructions does not change with what runs beside it),
each column's counts one after another.

Interrupted (Ctrl-C, SIGTERM), the counts in progress end at once, their servers and load
generators stopped (:mod:`layerbench.proc.threads_together`), and the counts already finished are
kept: handed to ``kept`` before the interruption goes on."""

import threading
from collections.abc import Callable, Iterator
from contextlib import suppress
from dataclasses import asdict, dataclass, replace
from pathlib import Path

from layerbench.errors import LayerbenchError
from layerbench.proc.threads_together import run_together
from layerbench.replicate.patient_probes import patient_probes
from layerbench.replicate.quiet_server import quiet_processes
from layerbench.replicate.second_run import (
    SecondRun,
    WindowTotal,
    count_second_instructions,
    count_second_syscalls,
    exit_dumps,
)
from layerbench.served.counted_launch import VGDB_NAME
from layerbench.served.fixed_load import FixedLoad
from layerbench.served.served_columns import CountedTarget, measure_targets
from layerbench.served.served_cost import ServedCost, counted, rung_load
from layerbench.served.served_counting import Counting, counting_for
from layerbench.served.served_dumps import window_dumps
from layerbench.served.served_roles import process_roles
from layerbench.served.served_windows import Windows
from layerbench.served.syscall_counts import SyscallCounter
from layerbench.served.vgdb_control import Vgdb
from layerbench.servers.deployment import Deployment
from layerbench.typed_documents import JsonObject, encode

FIRST_WINDOW = "first-requests"
# Seconds a request of the first requests (or of the second run's settling) may wait: under
# callgrind on two cores, twenty children importing Django at once take minutes.
FIRST_TIMEOUT_S = 1800.0


@dataclass(frozen=True)
class FirstRequests:
    """The first ``requests`` requests after a start, per request."""

    requests: int
    instructions_per_request: float
    syscalls_per_request: dict[str, float]
    # The server's processes counted: those it started during the requests included.
    processes: int
    # The second run on the same start (layerbench/replicate/second_run.py), or why it has
    # none; None when not asked for.
    second_run: SecondRun | str | None = None

    def to_dict(self) -> JsonObject:
        second = self.second_run
        document: JsonObject = encode(asdict(replace(self, second_run=None)))
        del document["second_run"]
        if isinstance(second, SecondRun):
            document["second_run"] = encode(asdict(second))
        elif second is not None:
            document["second_run"] = {"error": second}
        return document


# Per target, each count of its first requests, or why it has none.
FirstCounts = dict[str, list[FirstRequests | str]]


@dataclass(frozen=True)
class _Window:
    """One fresh start's count over its first requests: totals, not per request."""

    instructions: float
    syscalls: dict[str, int]
    processes: int
    second: SecondRun | str | None = None


def count_repeatedly(
    targets: list[CountedTarget],
    workdir: Path,
    *,
    counts: int,
    measure: str,
    client_cpus: frozenset[int] | None,
    told: Callable[[str], None],
) -> Iterator[dict[str, ServedCost | str]]:
    """Each target's served cost, ``counts`` times over (all targets once, then again), each
    round as it is done, after a first count made elsewhere (the directories and what ``told``
    hears number from 2)."""

    def told_count(number: int) -> Callable[[str], None]:
        return lambda label: told(f"{label} (count {number + 2})")

    for number in range(counts):
        directory = workdir / f"count-{number + 2}"
        directory.mkdir(parents=True, exist_ok=True)
        yield measure_targets(
            targets,
            directory,
            Windows(),
            measure=measure,
            client_cpus=client_cpus,
            told=told_count(number),
        )


def count_first_requests_repeatedly(
    targets: list[CountedTarget],
    workdir: Path,
    *,
    requests: int,
    counts: int,
    client_cpus: frozenset[int] | None,
    told: Callable[[str], None],
    second_run: int | None = None,
    concurrency: int = 1,
    kept: Callable[[FirstCounts], None] = lambda found: None,
) -> FirstCounts:
    """Per target, ``counts`` counts of its first ``requests`` requests at ``concurrency`` (or
    why it has none): the targets at once, each in a thread of its own on its own server, its
    counts one after the other. ``kept`` is handed those finished however the counting ends
    (interrupted: the counts in progress ended at once, and left out)."""
    found: FirstCounts = {target.label: [] for target in targets}

    def work(index: int, start: Callable[[], object], stop: threading.Event) -> None:
        target = targets[index]
        start()
        for number in range(counts):
            if target.deployment is None:
                found[target.label].append(target.skipped or "not counted")
                continue
            if stop.is_set():
                return
            told(f"{target.label}: its first {requests:,} requests (count {number + 1})")
            directory = workdir / f"count-{number + 1}" / f"served-{index}"
            directory.mkdir(parents=True, exist_ok=True)
            try:
                url = target.deployment.base_url
                load = rung_load(target.rung, url, directory, Windows(), client_cpus)
                load = replace(load, concurrency=concurrency, timeout_s=FIRST_TIMEOUT_S)
                found[target.label].append(
                    count_first_requests(
                        target.deployment,
                        counting_for(target.adapter),
                        load,
                        directory,
                        requests,
                        second_run=second_run,
                    )
                )
            except LayerbenchError as error:
                if stop.is_set():
                    return  # its processes ended by the stop: a count interrupted, not failed
                found[target.label].append(f"not counted: {error}")

    try:
        run_together(len(targets), work)
    finally:
        kept(found)
    return found


def count_first_requests(
    deployment: Deployment,
    counting: Counting,
    load: FixedLoad,
    directory: Path,
    requests: int,
    *,
    second_run: int | None = None,
) -> FirstRequests:
    """The first ``requests`` requests after a start of ``deployment``, per request, sent at
    ``load``'s concurrency; with ``second_run`` (a concurrency), the second run on the same
    start after them."""
    window = _first_window(deployment, counting, load, directory / "first", requests, second_run)
    return FirstRequests(
        requests,
        window.instructions / requests,
        {name: n / requests for name, n in window.syscalls.items()},
        window.processes,
        window.second,
    )


def _first_window(  # noqa: PLR0917 (the count's parts)
    deployment: Deployment,
    counting: Counting,
    load: FixedLoad,
    directory: Path,
    requests: int,
    second_run: int | None,
) -> _Window:
    """The first ``requests`` requests after a start: their system calls on a native start, then
    their instructions on a start under callgrind; totals. With ``second_run``, after each, the
    second run (its failure kept as its message: the first run's counts stand)."""
    directory.mkdir(parents=True, exist_ok=True)
    directory.chmod(0o755)
    second_load = replace(load, concurrency=second_run or 1)
    second_calls: tuple[WindowTotal, int, int] | str | None = None
    with patient_probes(deployment), deployment:
        processes = quiet_processes(deployment, counting)
        counter = SyscallCounter(processes.pids(), directory, "first")
        counter.start()
        try:
            load.send(requests, f"first-syscalls-{requests}")
        finally:
            calls = counter.stop()
        if second_run is not None:
            try:
                second_calls = count_second_syscalls(
                    deployment, counting, second_load, directory, requests
                )
            except LayerbenchError as error:
                second_calls = f"not counted: {error}"
    callgrind = directory / "callgrind"
    with counted(deployment, callgrind, cache_sim=False), patient_probes(deployment), deployment:
        processes = quiet_processes(deployment, counting)
        vgdb = Vgdb(callgrind / VGDB_NAME)
        vgdb.tell(processes.pids(), "instrumentation on")
        ended_before = set(exit_dumps(callgrind))
        vgdb.tell(processes.pids(), "zero")
        load.send(requests, f"first-instructions-{requests}")
        now = process_roles(deployment, counting.runs_application).pids()
        # One that ends meanwhile is counted by its exit dump; else it is lost, said below.
        with suppress(LayerbenchError):
            vgdb.tell(now, f"dump {FIRST_WINDOW}")
        dumps = {
            pid: dump.instructions for pid, dump in window_dumps(callgrind, FIRST_WINDOW).items()
        }
        # What the processes that ended during the window counted, written as they exited.
        dumps |= {pid: n for pid, n in exit_dumps(callgrind).items() if pid not in ended_before}
        lost = sorted((set(processes.pids()) | set(now)) - set(dumps))
        if lost:
            raise LayerbenchError(f"no count of processes {lost} over the first requests")
        second: SecondRun | str | None = None
        if second_run is not None:
            try:
                second = count_second_instructions(
                    deployment, counting, second_load, callgrind, requests, second_calls
                )
            except LayerbenchError as error:
                second = f"not counted: {error}"
    return _Window(sum(dumps.values()), calls, len(dumps), second)


def further_counts(
    targets: list[CountedTarget],
    workdir: Path,
    first_count: dict[str, ServedCost | str],
    *,
    counts: int,
    measure: str,
    client_cpus: frozenset[int] | None,
    told: Callable[[str], None],
    kept: Callable[[JsonObject], None] = lambda counted: None,
) -> JsonObject:
    """After a run's first count of its targets' served cost (``first_count``), the others up to
    ``counts``: what a matrix's ``served`` document keeps of them, ``counts``, per column every
    count (``{"error": why}`` for one that failed). ``kept`` is handed the rounds finished
    however the counting ends (interrupted: those before the one in progress)."""
    rounds = [first_count]
    try:
        rounds.extend(
            count_repeatedly(
                targets,
                workdir / "recounts",
                counts=counts - 1,
                measure=measure,
                client_cpus=client_cpus,
                told=told,
            )
        )
    finally:
        kept(_counts_document(rounds))
    return _counts_document(rounds)


def _counts_document(rounds: list[dict[str, ServedCost | str]]) -> JsonObject:
    labels = list(dict.fromkeys(label for each in rounds for label in each))
    return {
        "counts": {label: [_cost_document(each.get(label)) for each in rounds] for label in labels}
    }


def first_requests_counts(
    targets: list[CountedTarget],
    workdir: Path,
    *,
    requests: int,
    counts: int,
    client_cpus: frozenset[int] | None,
    told: Callable[[str], None],
    second_run: int | None = None,
    concurrency: int = 1,
    kept: Callable[[JsonObject], None] = lambda counted: None,
) -> JsonObject:
    """``counts`` counts of each target's first ``requests`` requests at ``concurrency`` (and
    its second run after them): what a matrix's ``served`` document keeps of them,
    ``first_requests``, their number, concurrency and per column each count (``{"error":
    why}`` for one that failed). ``kept`` is handed the counts finished however the counting
    ends (interrupted: the counts in progress left out)."""

    def document(found: FirstCounts) -> JsonObject:
        return {
            "first_requests": {
                "requests": requests,
                "concurrency": concurrency,
                "counts": {
                    label: [
                        c.to_dict() if isinstance(c, FirstRequests) else {"error": c} for c in row
                    ]
                    for label, row in found.items()
                },
            }
        }

    found = count_first_requests_repeatedly(
        targets,
        workdir / "first-requests",
        requests=requests,
        counts=counts,
        client_cpus=client_cpus,
        told=told,
        second_run=second_run,
        concurrency=concurrency,
        kept=lambda found: kept(document(found)),
    )
    return document(found)


def _cost_document(cost: ServedCost | str | None) -> JsonObject:
    if isinstance(cost, ServedCost):
        return cost.to_dict()
    return {"error": cost or "not counted"}
