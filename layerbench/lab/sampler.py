"""The cost of every process of a trial, by role: CPU seconds over the measured interval and
memory (RSS, PSS, USS) per process, read from /proc by a background thread.

A role is a set of sessions: every server, service and load generator layerbench starts runs
in a session of its own (:mod:`layerbench.proc.process`), and every process it forks (nginx's
and gunicorn's workers) stays in it, or is at least its child: a process whose parent is
followed is followed in the same role (PostgreSQL's backends start sessions of their own).
Each sample lists ``/proc`` and reads ``/proc/PID/stat`` of the roles' processes and of those
it has not seen yet (a process of no role is read once).

A process's name and host are those of the last sample it was seen in: one that enters a
host's network namespace and execs (``ip netns exec HOST PROGRAM``) is that program on that
host, not the ``ip`` first seen on this machine's own network.

CPU: a process's user + system time at the last sample it was seen in, less its time at the
start (0 for a process born after the start). A process that exits between two samples loses
what it used since its last one, at most one interval's worth. Memory: the peak of each
figure seen per process in ``/proc/PID/smaps_rollup``, read less often (it walks the process's
mappings), and once more at the end. PSS shares each page among the processes that map it:
the sum of a role's PSS is what its forked workers really cost together; USS is what each one
alone would give back.

The sampler measures itself: the CPU time of its own thread as a share of a core.
"""

import os
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from layerbench.lab.host_sampler import host_of
from layerbench.results.usage import ProcessUsage, RoleUsage, Usage

PROC = Path("/proc")
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")
DEFAULT_INTERVAL_S = 0.5
MEMORY_EVERY = 8  # samples between two memory readings


@dataclass(frozen=True)
class ProcessStat:
    pid: int
    name: str
    ppid: int
    session: int
    cpu_s: float
    # Seconds after boot.
    started_s: float


def read_stat(pid: int) -> ProcessStat | None:
    """None when the process is gone (or unreadable)."""
    try:
        raw = (PROC / str(pid) / "stat").read_bytes()
    except OSError:
        return None
    # The name is in parentheses and may hold anything, ')' included: fields follow the last.
    open_at, close_at = raw.index(b"("), raw.rindex(b")")
    fields = raw[close_at + 2 :].split()
    # Fields from 3 (state): ppid is 4, session 6, utime 14, stime 15, starttime 22.
    ppid = int(fields[4 - 3])
    session = int(fields[6 - 3])
    ticks = int(fields[14 - 3]) + int(fields[15 - 3])
    started = int(fields[22 - 3])
    name = raw[open_at + 1 : close_at].decode(errors="replace")
    return ProcessStat(pid, name, ppid, session, ticks / CLOCK_TICKS, started / CLOCK_TICKS)


def read_memory(pid: int) -> tuple[int, int, int] | None:
    """RSS, PSS and USS in bytes; None when the process is gone (or unreadable)."""
    try:
        text = (PROC / str(pid) / "smaps_rollup").read_text()
    except OSError:
        return None
    values: dict[str, int] = {}
    for line in text.splitlines():
        key, _, rest = line.partition(":")
        parts = rest.split()
        if len(parts) == 2 and parts[1] == "kB":
            values[key] = int(parts[0]) * 1024
    if "Rss" not in values:
        return None
    private = values.get("Private_Clean", 0) + values.get("Private_Dirty", 0)
    return values["Rss"], values.get("Pss", 0), private


def machine_cpu() -> tuple[float, float]:
    """CPU seconds since boot, summed over every CPU of the machine (``/proc/stat``): those it
    was busy (all but idle, iowait and steal), and those the hypervisor gave to another
    machine while we had work (steal)."""
    fields = [int(value) for value in (PROC / "stat").read_text().split("\n", 1)[0].split()[1:]]
    fields += [0] * (8 - len(fields))
    idle, steal = fields[3] + fields[4], fields[7]
    # guest and guest_nice (fields 9 and 10) are already counted in user and nice.
    return (sum(fields[:8]) - idle - steal) / CLOCK_TICKS, steal / CLOCK_TICKS


def all_pids() -> list[int]:
    return [int(name) for name in os.listdir(PROC) if name.isdigit()]


def uptime_s() -> float:
    return float((PROC / "uptime").read_text().split()[0])


def peaks(a: tuple[int, int, int], b: tuple[int, int, int]) -> tuple[int, int, int]:
    return max(a[0], b[0]), max(a[1], b[1]), max(a[2], b[2])


@dataclass
class _Seen:
    role: str
    name: str
    baseline_cpu_s: float
    last_cpu_s: float
    memory: tuple[int, int, int] = (0, 0, 0)
    host: str | None = None


@dataclass
class Sampler:
    """Samples the processes of ``roles`` (role name → session ids) from :meth:`start` to
    :meth:`stop`."""

    roles: dict[str, set[int]]
    interval_s: float = DEFAULT_INTERVAL_S
    # On a topology: each host's network namespace (its inode) → the host's name; every
    # process is told its host by the namespace it is in (:mod:`layerbench.lab.host_sampler`).
    hosts: dict[int, str] = field(default_factory=dict)
    _seen: dict[int, _Seen] = field(default_factory=dict, init=False)
    # Processes of no role, read once: pids are not reused before the kernel has gone through
    # its whole pid range (pid_max), far more processes than one trial sees.
    _foreign: set[int] = field(default_factory=set, init=False)
    _stop: threading.Event = field(default_factory=threading.Event, init=False)
    _thread: threading.Thread | None = field(default=None, init=False)
    _started_at: float = field(default=0.0, init=False)
    _started_uptime_s: float = field(default=0.0, init=False)
    _samples: int = field(default=0, init=False)
    _own_cpu_s: float = field(default=0.0, init=False)
    _machine_at_start: tuple[float, float] = field(default=(0.0, 0.0), init=False)

    def watch(self, role: str, session: int) -> None:
        """Counts the processes of ``session`` in ``role`` too (before the interval begins)."""
        self.roles.setdefault(role, set()).add(session)
        self._foreign.clear()

    def start(self, delay_s: float = 0.0) -> "Sampler":
        """Begins the interval now, or after ``delay_s`` (a warm-up not to be counted)."""
        if delay_s <= 0:
            self._begin()
        self._thread = threading.Thread(
            target=self._run, args=(delay_s,), name="layerbench-sampler", daemon=True
        )
        self._thread.start()
        return self

    def _begin(self) -> None:
        self._started_uptime_s = uptime_s()
        self._started_at = time.monotonic()
        self._machine_at_start = machine_cpu()
        self._sample(first=True, memory=True)

    def stop(self) -> Usage:
        """Ends the interval; a sampler stopped before its interval began saw nothing."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join()
        if not self._started_at:
            return Usage({role: RoleUsage(role, (), 0.0) for role in self.roles}, 0.0, 0, 0.0)
        self._sample(first=False, memory=True)
        busy, steal = machine_cpu()
        machine = busy - self._machine_at_start[0]
        steal -= self._machine_at_start[1]
        interval = time.monotonic() - self._started_at
        by_role: dict[str, list[ProcessUsage]] = {role: [] for role in self.roles}
        for pid, seen in sorted(self._seen.items()):
            rss, pss, uss = seen.memory
            cpu = max(0.0, seen.last_cpu_s - seen.baseline_cpu_s)
            by_role[seen.role].append(
                ProcessUsage(pid, seen.name, seen.role, cpu, rss, pss, uss, seen.host)
            )
        roles = {
            role: RoleUsage(role, tuple(processes), interval) for role, processes in by_role.items()
        }
        own = 100 * self._own_cpu_s / interval if interval > 0 else 0.0
        return Usage(roles, interval, self._samples, own, machine, steal)

    def _run(self, delay_s: float) -> None:
        if delay_s > 0:
            if self._stop.wait(delay_s):
                return
            self._begin()
        n = 0
        while not self._stop.wait(self.interval_s):
            n += 1
            self._sample(first=False, memory=n % MEMORY_EVERY == 0)

    def _role_of(self, session: int) -> str | None:
        for role, sessions in self.roles.items():
            if session in sessions:
                return role
        return None

    def _sample(self, *, first: bool, memory: bool) -> None:
        """Every sample's CPU counts in the sampler's own cost, the first and last included."""
        cpu_before = time.thread_time()
        try:
            self._read_processes(first=first, memory=memory)
        finally:
            self._own_cpu_s += time.thread_time() - cpu_before

    def _read_processes(self, *, first: bool, memory: bool) -> None:
        self._samples += 1
        unknown: list[ProcessStat] = []
        for pid in all_pids():
            if pid in self._foreign:
                continue
            stat = read_stat(pid)
            if stat is None:
                continue
            seen = self._seen.get(pid)
            if seen is None:
                unknown.append(stat)
                continue
            self._update(seen, stat, memory)
        # Parents before children: a child joins its parent's role even in a session of its
        # own (PostgreSQL's backends call setsid()).
        for stat in sorted(unknown, key=lambda stat: stat.started_s):
            parent = self._seen.get(stat.ppid)
            role = self._role_of(stat.session) or (parent.role if parent else None)
            if role is None:
                self._foreign.add(stat.pid)
                continue
            born_since = not first and stat.started_s >= self._started_uptime_s
            baseline = 0.0 if born_since else stat.cpu_s
            seen = _Seen(role, stat.name, baseline, stat.cpu_s, host=host_of(stat.pid, self.hosts))
            self._seen[stat.pid] = seen
            self._update(seen, stat, memory)

    def _update(self, seen: _Seen, stat: ProcessStat, memory: bool) -> None:
        seen.last_cpu_s = stat.cpu_s
        # A process is what it is at its last sample: `ip netns exec HOST layerbench-load` is
        # first seen as `ip` on this machine's network, then it enters the host and execs.
        seen.name = stat.name
        seen.host = host_of(stat.pid, self.hosts) or seen.host
        if memory:
            current = read_memory(stat.pid)
            if current is not None:
                seen.memory = peaks(seen.memory, current)
