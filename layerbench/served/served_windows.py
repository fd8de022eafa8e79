"""The two counted windows over a running deployment: after a warm-up, a window of ``short``
requests and one of ``long`` (the same requests, at the same concurrency), each process's count
taken over each; the per-request figures are their difference over ``long - short``
(:mod:`layerbench.served.per_request`), by role. Instructions are counted in a deployment
started under callgrind (counts zeroed at a window's start, dumped at its end, through vgdb), in
rounds of the two windows until each size has two quiet ones, bursts told apart
(:mod:`layerbench.served.steady_windows`); system calls in one started natively, by strace
attached for the window.

Every window lasts the same time, its requests paced over it
(:mod:`layerbench.served.paced_windows`), and one window as long with no request gives what each
role does per second while idle: the work of the server's timers cancels in the difference,
what is left of it is taken off or bounded (:mod:`layerbench.served.time_driven`)."""

import re
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import TypeVar

from layerbench.errors import ConfigError, LayerbenchError
from layerbench.served.counted_launch import VGDB_NAME
from layerbench.served.fixed_load import FixedLoad
from layerbench.served.paced_windows import PACE_MARGIN, Pacer
from layerbench.served.per_request import summed
from layerbench.served.served_counting import Counting
from layerbench.served.served_dumps import window_dumps
from layerbench.served.served_roles import CountedProcesses, process_roles
from layerbench.served.steady_windows import CountedWindow, SteadyCost, confirmed, steady_cost
from layerbench.served.syscall_counts import TIMING_CALLS, SyscallCounter
from layerbench.served.time_driven import (
    MIN_SECONDS,
    TIMER_S,
    rates,
    timed_per_request,
    uncertainty,
)
from layerbench.served.vgdb_control import Vgdb
from layerbench.servers.deployment import Deployment

T = TypeVar("T")

DEFAULT_SHORT = 200
DEFAULT_LONG = 600
DEFAULT_WARMUP = 20
# Rounds of the two windows counting instructions: at least ROUNDS, more (up to MAX_ROUNDS) until
# each size has two quiet windows (:mod:`layerbench.served.steady_windows`).
DEFAULT_ROUNDS = 2
DEFAULT_MAX_ROUNDS = 6
# Native starts counting system calls: a call whose figure moves with the start is told apart
# (:mod:`layerbench.served.start_dependent_calls`).
DEFAULT_STARTS = 3
# Requests served uncounted before each round after the first (which serves its long window
# first every other round): a burst every N requests does not fall in the same window of every
# round (mod_wsgi's rebuild of its interned strings fell in both short windows of two rounds).
SPACER_REQUESTS = 97
# A server's processes must stay the same this long before a count starts (Apache forks and
# ends children as it settles), waited for at most SETTLE_CAP_S; a count during which they
# change anyway is made again, at most ATTEMPTS times.
SETTLED_S = 3.0
SETTLE_CAP_S = 120.0
SETTLE_POLL_S = 0.5
ATTEMPTS = 3
MAX_REQUESTS = 100_000


@dataclass(frozen=True)
class Windows:
    short: int = DEFAULT_SHORT
    long: int = DEFAULT_LONG
    warmup: int = DEFAULT_WARMUP
    concurrency: int = 1
    # Seconds each window idles before its requests: what the server does meanwhile (its
    # heartbeats, its timers) is counted in both windows alike, and cancels.
    idle_s: float = 0.0
    rounds: int = DEFAULT_ROUNDS
    max_rounds: int = DEFAULT_MAX_ROUNDS
    # Each window lasts this many times what the long window's requests take, its requests
    # paced over it (:mod:`layerbench.served.paced_windows`).
    pace_margin: float = PACE_MARGIN
    # The shortest a window lasts: more than a timer's period, that the idle window bounds one
    # of its fires (:mod:`layerbench.served.time_driven`).
    min_seconds: float = MIN_SECONDS
    starts: int = DEFAULT_STARTS

    def __post_init__(self) -> None:
        if not 1 <= self.short < self.long <= MAX_REQUESTS:
            raise ConfigError(
                f"the counted windows serve 1 <= short < long <= {MAX_REQUESTS} requests, "
                f"not {self.short} and {self.long}"
            )
        if self.warmup < 0 or self.concurrency < 1 or self.idle_s < 0:
            raise ConfigError(
                "the warm-up is 0 or more requests, the idle time 0 or more seconds, the "
                "concurrency 1 or more"
            )
        if self.pace_margin < 1:
            raise ConfigError(f"the windows' pace margin is 1 or more, not {self.pace_margin}")
        if self.min_seconds <= TIMER_S:
            raise ConfigError(f"a window lasts more than {TIMER_S:g} s, not {self.min_seconds:g}")
        if self.starts < 1:
            raise ConfigError(
                f"the system calls are counted over 1 or more starts, not {self.starts}"
            )
        if not 1 <= self.rounds <= self.max_rounds:
            raise ConfigError(
                f"the windows are counted in 1 <= rounds <= max_rounds, not {self.rounds} and "
                f"{self.max_rounds}"
            )

    @property
    def sizes(self) -> tuple[int, int]:
        return (self.short, self.long)


def _tags(labels: list[str]) -> dict[str, str]:
    """Per label (a rung's name, a URL), a name for its files and dumps: its place and its
    characters that are safe in a file's name."""
    return {
        label: f"{index}-{re.sub(r'[^A-Za-z0-9_.-]', '_', label)}"
        for index, label in enumerate(labels)
    }


class ProcessesChangedError(LayerbenchError):
    """The server's processes changed during a count: it is made again."""


def _same_processes(before: CountedProcesses, after: CountedProcesses, what: str) -> None:
    if before.roles != after.roles:
        started = sorted(set(after.roles) - set(before.roles))
        ended = sorted(set(before.roles) - set(after.roles))
        raise ProcessesChangedError(
            f"the server's processes changed while its {what} were counted "
            f"(started {started or 'none'}, ended {ended or 'none'})"
        )


def settled_processes(deployment: Deployment, counting: Counting) -> CountedProcesses:
    """Its processes once they have stayed the same for SETTLED_S (or SETTLE_CAP_S passed)."""
    processes = process_roles(deployment, counting.runs_application)
    since = time.monotonic()
    deadline = since + SETTLE_CAP_S
    while time.monotonic() - since < SETTLED_S and time.monotonic() < deadline:
        time.sleep(SETTLE_POLL_S)
        now = process_roles(deployment, counting.runs_application)
        if now.roles != processes.roles:
            processes, since = now, time.monotonic()
    return processes


def _attempts(
    deployment: Deployment,
    counting: Counting,
    what: str,
    count: Callable[[CountedProcesses, str], T],
) -> T:
    """``count`` on the settled processes (with a tag of its attempt for its files), made again
    when they change meanwhile (a failure while they changed is such a change)."""
    last: LayerbenchError | None = None
    for attempt in range(1, ATTEMPTS + 1):
        processes = settled_processes(deployment, counting)
        try:
            return count(processes, f"a{attempt}")
        except LayerbenchError as error:
            now = process_roles(deployment, counting.runs_application)
            if not isinstance(error, ProcessesChangedError) and now.roles == processes.roles:
                raise
            last = error
    raise LayerbenchError(f"no count of its {what} in {ATTEMPTS} attempts: {last}")


@dataclass(frozen=True)
class CountedSyscalls:
    """Per role: its system calls per request by call, what is left of its timers' calls, per
    request, as an uncertainty, and its calls per second while idle, by call; and each round's
    own calls per request, per role by call."""

    per_request: dict[str, dict[str, float]]
    uncertainty: dict[str, float]
    idle_per_second: dict[str, dict[str, float]]
    per_round: list[dict[str, dict[str, float]]] = field(default_factory=list)


def count_syscalls(
    deployment: Deployment,
    counting: Counting,
    loads: Mapping[str, FixedLoad],
    directory: Path,
    windows: Windows,
) -> tuple[CountedProcesses, dict[str, CountedSyscalls]]:
    """Its processes with their roles, and per load (each a request: a rung), per role, its
    system calls per request by call: strace attached for a window with no request, then for
    ``windows.rounds`` rounds of the two windows, each as long (the pace measured with strace
    attached)."""
    directory.mkdir(parents=True, exist_ok=True)

    def count(
        processes: CountedProcesses, attempt: str
    ) -> tuple[CountedProcesses, dict[str, CountedSyscalls]]:
        figures = {}
        tags = _tags(list(loads))
        for label, load in loads.items():
            tag = f"{attempt}-{tags[label]}"
            figures[label] = _load_syscalls(processes, load, directory, tag, windows)
        now = process_roles(deployment, counting.runs_application)
        _same_processes(processes, now, "system calls")
        return processes, figures

    return _attempts(deployment, counting, "system calls", count)


Calls = dict[str, dict[str, int]]


def _load_syscalls(
    processes: CountedProcesses, load: FixedLoad, directory: Path, tag: str, windows: Windows
) -> CountedSyscalls:
    """One load's system calls: its warm-up, its pace measured with strace attached, a window
    with no request, then rounds of the two windows, each as long: the long one first, the
    short one as long as it lasted."""
    load.send(windows.warmup, f"syscalls-{tag}-warmup")

    def attached(name: str, during: Callable[[], float]) -> tuple[Calls, float]:
        return _window_syscalls(processes, directory, f"{tag}-{name}", during)

    pacer = Pacer.measured(
        load,
        windows.long,
        f"syscalls-{tag}-pace",
        margin=windows.pace_margin,
        least_s=windows.min_seconds,
        idle_s=windows.idle_s,
        around=lambda timed: attached("pace", timed)[1],
    )
    idle, idle_seconds = attached("idle", pacer.idle)
    # In each round the long window first; the short one then lasts as long as it did.
    rounds: list[dict[int, tuple[Calls, float]]] = []
    for round_ in range(1, windows.rounds + 1):
        counted = {}
        for size in windows.sizes[::-1]:
            name = f"r{round_}-{size}"
            paced = partial(pacer.window, load, size, f"syscalls-{tag}-{name}")
            counted[size] = attached(name, paced)
            pacer.seconds = max(pacer.seconds, counted[size][1])
        rounds.append(counted)
    return _syscall_figures(processes, windows, rounds, idle, idle_seconds)


def _syscall_figures(
    processes: CountedProcesses,
    windows: Windows,
    rounds: list[dict[int, tuple[Calls, float]]],
    idle: Calls,
    idle_seconds: float,
) -> CountedSyscalls:
    """Per role, the difference of each size's mean calls, by call, what they did per second
    while idle over the difference of the sizes' mean durations taken off; its uncertainty
    with the spread of the rounds' counts of the calls that do not depend on timing."""
    roles = processes.present_roles()
    per_second = {role: rates(idle.get(role, {}), idle_seconds) for role in roles}

    def mean(size: int, role: str) -> dict[str, float]:
        calls: dict[str, float] = {}
        for counted in rounds:
            for name, count in counted[size][0].get(role, {}).items():
                calls[name] = calls.get(name, 0.0) + count / len(rounds)
        return calls

    def seconds(size: int) -> float:
        return sum(counted[size][1] for counted in rounds) / len(rounds)

    def timeless(size: int, role: str) -> list[float]:
        rate = sum(v for k, v in per_second[role].items() if k not in TIMING_CALLS)
        return [
            sum(v for k, v in counted[size][0].get(role, {}).items() if k not in TIMING_CALLS)
            - rate * counted[size][1]
            for counted in rounds
        ]

    short, long = windows.short, windows.long
    return CountedSyscalls(
        per_request={
            role: timed_per_request(
                mean(short, role),
                seconds(short),
                short,
                mean(long, role),
                seconds(long),
                long,
                per_second[role],
            )
            for role in roles
        },
        uncertainty={
            role: uncertainty(
                sum(per_second[role].values()),
                idle_seconds,
                timeless(short, role),
                timeless(long, role),
                seconds(long) - seconds(short),
                long - short,
            )
            for role in roles
        },
        idle_per_second=per_second,
        per_round=[
            {
                role: timed_per_request(
                    counted[short][0].get(role, {}),
                    counted[short][1],
                    short,
                    counted[long][0].get(role, {}),
                    counted[long][1],
                    long,
                    per_second[role],
                )
                for role in roles
            }
            for counted in rounds
        ],
    )


def _window_syscalls(
    processes: CountedProcesses, directory: Path, tag: str, during: Callable[[], float]
) -> tuple[Calls, float]:
    """Per role, the calls its processes made while ``during`` ran (strace attached to each
    role's processes before, detached after), and the seconds ``during`` says it lasted."""
    counters = {
        role: SyscallCounter(processes.pids(role), directory, f"{role}-{tag}")
        for role in processes.present_roles()
    }
    started: list[SyscallCounter] = []
    try:
        for counter in counters.values():
            counter.start()
            started.append(counter)
        seconds = during()
    finally:
        calls = {role: counter.stop() for role, counter in counters.items() if counter in started}
    return calls, seconds


def count_instructions(
    deployment: Deployment,
    counting: Counting,
    loads: Mapping[str, FixedLoad],
    directory: Path,
    windows: Windows,
) -> tuple[CountedProcesses, dict[str, SteadyCost]]:
    """Its processes with their roles, and per load its steady cost per request by role
    (callgrind's events: Ir, and the cache simulation's with it) and its bursts, of a deployment
    started under callgrind with its dumps in ``directory``."""
    vgdb = Vgdb(directory / VGDB_NAME)

    def count(
        processes: CountedProcesses, attempt: str
    ) -> tuple[CountedProcesses, dict[str, SteadyCost]]:
        pids = processes.pids()
        vgdb.tell(pids, "instrumentation on")
        tags = {label: f"{attempt}-{tag}" for label, tag in _tags(list(loads)).items()}
        figures = {}
        for label, load in loads.items():
            tag = tags[label]
            figures[label] = _load_instructions(vgdb, processes, load, directory, tag, windows)
        now = process_roles(deployment, counting.runs_application)
        _same_processes(processes, now, "instructions")
        return processes, figures

    return _attempts(deployment, counting, "instructions", count)


def _load_instructions(  # noqa: PLR0917 (one load's counter, processes, files and windows)
    vgdb: Vgdb,
    processes: CountedProcesses,
    load: FixedLoad,
    directory: Path,
    tag: str,
    windows: Windows,
) -> SteadyCost:
    """One load's instructions: its warm-up, its pace measured, a window with no request, then
    rounds of the two windows, each as long, until each size has two quiet ones."""
    pids = processes.pids()
    load.send(windows.warmup, f"instructions-{tag}-warmup")
    pacer = Pacer.measured(
        load,
        windows.long,
        f"instructions-{tag}-pace",
        margin=windows.pace_margin,
        least_s=windows.min_seconds,
        idle_s=windows.idle_s,
    )

    def window(name: str, requests: int, during: Callable[[], float]) -> CountedWindow:
        vgdb.tell(pids, "zero")
        seconds = during()
        vgdb.tell(pids, f"dump window-{name}")
        return _counted_window(processes, directory, name, requests, seconds)

    idle = window(f"{tag}-idle", 0, pacer.idle)
    counted: list[CountedWindow] = []
    for round_ in range(1, windows.max_rounds + 1):
        if round_ > 1:
            load.send(SPACER_REQUESTS, f"instructions-{tag}-r{round_}-spacer")
            pacer.next_round()
        sizes = windows.sizes if round_ % 2 else windows.sizes[::-1]
        for size in sizes:
            name = f"{tag}-r{round_}-{size}"
            paced = partial(pacer.window, load, size, f"instructions-{name}")
            counted.append(window(name, size, paced))
        if round_ >= windows.rounds and confirmed(counted, windows.sizes, idle):
            break
    return steady_cost(counted, windows.short, windows.long, idle)


def _counted_window(
    processes: CountedProcesses, directory: Path, window: str, size: int, seconds: float
) -> CountedWindow:
    """Per role, callgrind's events over the window ``window``, from each process's dump."""
    pids = processes.pids()
    dumps = window_dumps(directory, f"window-{window}")
    missing = sorted(set(pids) - set(dumps))
    if missing:
        raise LayerbenchError(f"no dump of window {window} from {missing}")
    by_process = {pid: {k: float(v) for k, v in dumps[pid].events.items()} for pid in pids}
    return CountedWindow(size, summed(by_process, processes.roles), seconds)
