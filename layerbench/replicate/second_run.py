"""A post's second run after a restart, counted: the same server as its first run, once every
child it will start has started and served, then windows of the first run's size until two
agree (:mod:`layerbench.replicate.served_counts` counts the first run, then this on the same
start).

Settling: batches of SETTLE_BATCH requests at ``concurrency`` (the post's: more than the server
runs at once, Apache's MaxRequestWorkers with one thread per child), one after the other, until
the processes stop growing in number; then the server left quiet
(:mod:`layerbench.replicate.quiet_server`). At that concurrency connections wait while a batch
lasts, so the server starts children up to its most and each serves as it starts (and a lazily
loaded application is imported in it): two batches settle it. At the most it runs at once
instead, Apache's event MPM parks kept-alive connections in the children it has, a child it
starts may find none waiting, and the processes grow one a batch. No pause between batches, as
none in the post's run of 10,000 requests, or Apache would end idle children and start others. Then
windows of ``requests`` requests at WINDOW_CONCURRENCY, every process counted (those started or
ended meanwhile included, as over the first requests), until two are quiet: within AGREE over
the least. A window more than that over held a child's start or an import (one adds as much as
hundreds of warm requests): Apache still ends a child now and then and starts another, which the
post's run, never idle, did not. The quiet windows' mean per request is the second run's figure;
the windows left out are said."""

import re
from collections.abc import Callable
from contextlib import suppress
from dataclasses import dataclass, replace
from pathlib import Path

from layerbench.errors import LayerbenchError, LoadGeneratorError
from layerbench.replicate.quiet_server import quiet_processes
from layerbench.served.counted_launch import VGDB_NAME
from layerbench.served.fixed_load import FixedLoad
from layerbench.served.served_counting import Counting
from layerbench.served.served_dumps import window_dumps
from layerbench.served.served_roles import process_roles
from layerbench.served.syscall_counts import TIMING_CALLS, SyscallCounter
from layerbench.served.vgdb_control import Vgdb
from layerbench.servers.deployment import Deployment

# A dump's total of its first event (Ir): callgrind's ``totals:`` line.
_TOTALS = re.compile(r"^totals: (\d+)", re.MULTILINE)
SETTLE_BATCH = 200
MAX_SETTLE_BATCHES = 10
# Two windows in a row whose totals agree within this share are warm (instructions; system
# calls vary more with timing at a concurrency above 1).
AGREE = 0.02
AGREE_SYSCALLS = 0.05
MAX_WINDOWS = 8
# The windows' concurrency, after the settling: one request at a time, as the first requests
# are counted. More would leave no child idle, and Apache would start another (which a lazy
# application's child would import at its first request); between windows, with none busy, it
# ends the idle children beyond its MaxSpare, and only ends them.
WINDOW_CONCURRENCY = 1


@dataclass(frozen=True)
class SecondRun:
    """The second run, per request."""

    requests: int
    # The settling's concurrency (the windows are at WINDOW_CONCURRENCY).
    concurrency: int
    # Requests sent to settle the server before its windows, and the windows counted.
    settle_requests: int
    windows: int
    instructions_per_request: float
    syscalls_per_request: dict[str, float]
    # The processes counted over the last window.
    processes: int
    # The windows left out: more than AGREE over the least (a child started, or imported the
    # application, in each).
    windows_left_out: int = 0


@dataclass(frozen=True)
class WindowTotal:
    """One window's count, totals: what windows are compared by (instructions, or the system
    calls of :func:`compared_calls`), the calls by name, and the processes counted."""

    total: float
    calls: dict[str, float]
    processes: int


def settle(deployment: Deployment, counting: Counting, load: FixedLoad, tag: str) -> int:
    """Batches of SETTLE_BATCH requests one after the other, until the processes at a batch's
    end are no more than at the one before's (the server runs as many as it will at this
    load); then the server left quiet (each child it started done starting, the idle ones it
    ends ended). The requests sent. Between two batches the server may end an idle child and
    start another in the next: that one serves in it too, so the count, not the set, is
    compared."""
    before = len(quiet_processes(deployment, counting).pids())
    for batch in range(1, MAX_SETTLE_BATCHES + 1):
        # Not counted: a request that timed out while children started (each importing the
        # application under callgrind) does not spoil it.
        with suppress(LoadGeneratorError):
            load.send(SETTLE_BATCH, f"{tag}-settle-{batch}")
        now = len(process_roles(deployment, counting.runs_application).pids())
        if now <= before:
            quiet_processes(deployment, counting)
            return batch * SETTLE_BATCH
        before = now
    raise LayerbenchError(
        f"the server kept starting processes over {MAX_SETTLE_BATCHES * SETTLE_BATCH:,} "
        f"settling requests at c={load.concurrency}"
    )


def quiet_windows(windows: list[WindowTotal], agree: float) -> list[WindowTotal]:
    """The windows within ``agree`` over the least: those without a child's start or import."""
    least = min(window.total for window in windows)
    return [window for window in windows if window.total <= least * (1 + agree)]


def warm_windows(count: Callable[[int], WindowTotal], agree: float) -> tuple[WindowTotal, int, int]:
    """Windows counted (``count`` of each window's number) until two of them are quiet (within
    ``agree`` over the least): their mean, the windows counted, and how many were left out
    (a child started, or imported the application, in each)."""
    windows: list[WindowTotal] = []
    for number in range(1, MAX_WINDOWS + 1):
        windows.append(count(number))
        quiet = quiet_windows(windows, agree)
        if len(quiet) >= 2:
            names = sorted({name for window in quiet for name in window.calls})
            calls = {
                name: sum(window.calls.get(name, 0) for window in quiet) / len(quiet)
                for name in names
            }
            total = sum(window.total for window in quiet) / len(quiet)
            mean = WindowTotal(total, calls, quiet[-1].processes)
            return mean, number, number - len(quiet)
    raise LayerbenchError(
        f"not warm: no two of {MAX_WINDOWS} windows within {agree:.0%} of the least"
    )


def compared_calls(calls: dict[str, int]) -> float:
    """What two windows' system calls are compared by: their calls, those in TIMING_CALLS left
    out. futex counts threads handing one another the GIL, as often as their timing makes it:
    from window to window of the same warm child it moved by 75 % (1,574 to 2,751 over 500
    requests) while the other calls kept within 3 %."""
    return float(sum(n for name, n in calls.items() if name not in TIMING_CALLS))


def count_second_syscalls(
    deployment: Deployment, counting: Counting, load: FixedLoad, directory: Path, requests: int
) -> tuple[WindowTotal, int, int]:
    """On the native start, after its first requests: the second run's system calls (totals of
    two agreeing windows' mean), the settling requests and the windows counted."""
    settled = settle(deployment, counting, load, "second-syscalls")
    windows_load = replace(load, concurrency=WINDOW_CONCURRENCY)

    def count(number: int) -> WindowTotal:
        pids = process_roles(deployment, counting.runs_application).pids()
        counter = SyscallCounter(pids, directory, f"second-{number}")
        counter.start()
        try:
            windows_load.send(requests, f"second-syscalls-{number}")
        finally:
            calls = counter.stop()
        return WindowTotal(compared_calls(calls), dict(calls), len(pids))

    window, windows, _ = warm_windows(count, AGREE_SYSCALLS)
    return window, settled, windows


def count_second_instructions(  # noqa: PLR0917 (the count's parts)
    deployment: Deployment,
    counting: Counting,
    load: FixedLoad,
    callgrind: Path,
    requests: int,
    calls: tuple[WindowTotal, int, int] | str | None,
) -> SecondRun:
    """On the start under callgrind, after its first requests: the second run's instructions,
    beside its system calls (``calls``) counted on the native start."""
    if isinstance(calls, str) or calls is None:
        raise LayerbenchError(calls or "its system calls were not counted")
    syscalls, _, _ = calls
    vgdb = Vgdb(callgrind / VGDB_NAME)
    # On already after a first run; the processes the server starts from now on inherit it.
    vgdb.tell(process_roles(deployment, counting.runs_application).pids(), "instrumentation on")
    settled = settle(deployment, counting, load, "second-instructions")
    windows_load = replace(load, concurrency=WINDOW_CONCURRENCY)

    def count(number: int) -> WindowTotal:
        name = f"second-run-{number}"
        pids = process_roles(deployment, counting.runs_application).pids()
        ended_before = set(exit_dumps(callgrind))
        vgdb.tell(pids, "zero")
        windows_load.send(requests, name)
        now = process_roles(deployment, counting.runs_application).pids()
        with suppress(LayerbenchError):
            vgdb.tell(now, f"dump {name}")
        dumps = {pid: dump.instructions for pid, dump in window_dumps(callgrind, name).items()}
        dumps |= {pid: n for pid, n in exit_dumps(callgrind).items() if pid not in ended_before}
        lost = sorted((set(pids) | set(now)) - set(dumps))
        if lost:
            raise LayerbenchError(f"no count of processes {lost} over the second run")
        return WindowTotal(float(sum(dumps.values())), {}, len(dumps))

    window, windows, left_out = warm_windows(count, AGREE)
    return SecondRun(
        requests,
        load.concurrency,
        settled,
        windows,
        window.total / requests,
        {name: n / requests for name, n in syscalls.calls.items()},
        window.processes,
        left_out,
    )


def exit_dumps(directory: Path) -> dict[int, int]:
    """The instructions each process that has ended counted since its last dump (callgrind
    writes ``callgrind.out.PID`` as a process exits), by process."""
    found = {}
    for path in directory.glob("callgrind.out.*"):
        pid = path.name.removeprefix("callgrind.out.")
        if not pid.isdigit():
            continue
        totals = _TOTALS.search(path.read_text(errors="replace"))
        if totals is not None:
            found[int(pid)] = int(totals.group(1))
    return found
