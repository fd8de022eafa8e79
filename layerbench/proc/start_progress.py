"""Whether a start is moving: more of its processes have done what they announce (loaded the
application), or its process tree has used CPU. On a loaded machine a start takes as long as
the CPU it is given; what tells a slow start from a stalled one is that it keeps working."""

import os
import time
from collections.abc import Callable

# CPU seconds the tree must use since its last progress to count as progress again: a child
# importing an application uses that in seconds even given a tenth of a core; an idle or hung
# server's housekeeping (Apache's parent wakes each second) does not in a start timeout.
CPU_STEP_S = 0.5
# How often the tree's CPU is read: each read walks /proc, on a machine already short of CPU.
CPU_READ_INTERVAL_S = 1.0
TICKS_PER_S = os.sysconf("SC_CLK_TCK")


def _stat(pid: int) -> tuple[int, int, str, float] | None:
    """(ppid, session, state, CPU seconds with its reaped children's) of ``pid``; None once
    it has gone."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as stat:
            fields = stat.read().rsplit(b")", 1)[1].split()
    except (OSError, IndexError):
        return None
    # After the name: state, ppid, pgrp, session, ... utime, stime, cutime, cstime (11-14).
    ticks = sum(int(field) for field in fields[11:15])
    return int(fields[1]), int(fields[3]), fields[0].decode(), ticks / TICKS_PER_S


def tree_cpu_s(leader: int) -> float:
    """The CPU seconds used so far by ``leader``'s session and by the sessions its descendants
    started (Passenger's watchdog leaves for one): every live member's, its reaped children's
    included."""
    live = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit() and (stat := _stat(int(entry))) is not None:
            live[int(entry)] = stat
    sessions = {live[leader][1]} if leader in live else {leader}
    below: set[int] = set()
    frontier = {leader}
    while frontier:
        frontier = {pid for pid, stat in live.items() if stat[0] in frontier} - below
        below |= frontier
    sessions |= {live[pid][1] for pid in below}
    return sum(
        cpu_s for _, session, state, cpu_s in live.values() if session in sessions and state != "X"
    )


class StartProgress:
    """Called as a start is waited for: True when it has moved since the last True (or since
    it was made): ``count`` (processes that announced) grew, or the tree of ``leader`` used
    CPU_STEP_S more CPU."""

    def __init__(
        self,
        leader: int,
        count: Callable[[], int] | None = None,
        *,
        cpu: Callable[[int], float] = tree_cpu_s,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._leader = leader
        self._count = count
        self._cpu = cpu
        self._clock = clock
        self._counted = count() if count is not None else 0
        self._cpu_mark = cpu(leader)
        self._cpu_read_at = clock()

    def __call__(self) -> bool:
        moved = False
        if self._count is not None and (counted := self._count()) > self._counted:
            self._counted = counted
            moved = True
        now = self._clock()
        if now - self._cpu_read_at >= CPU_READ_INTERVAL_S:
            self._cpu_read_at = now
            used = self._cpu(self._leader)
            if used - self._cpu_mark >= CPU_STEP_S:
                self._cpu_mark = used
                moved = True
        return moved
