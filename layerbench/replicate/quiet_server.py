"""A server quiet before its first requests are counted: its processes the same, and idle.

The same processes for a few seconds is not enough: a child Apache has forked may still be in
its start (mod_wsgi's preload imports the application in ``child_init``, which under callgrind on
a loaded machine takes minutes), and what it does then would be counted as the requests' cost.
So the processes must also have used at most IDLE_SHARE of a core between two looks QUIET_S
apart: an idle server's timers use far less, a start far more."""

import os
import time

from layerbench.errors import LayerbenchError
from layerbench.proc.thread_processes import pause
from layerbench.served.served_counting import Counting
from layerbench.served.served_roles import CountedProcesses, process_roles
from layerbench.servers.deployment import Deployment

QUIET_S = 3.0
QUIET_CAP_S = 900.0
IDLE_SHARE = 0.05
TICKS_PER_S = os.sysconf("SC_CLK_TCK")


def cpu_s(pids: list[int]) -> float:
    """The CPU seconds the processes ``pids`` have used (every thread's; user and system); a
    process gone counts none."""
    ticks = 0
    for pid in pids:
        try:
            with open(f"/proc/{pid}/stat", "rb") as stat:
                fields = stat.read().rsplit(b")", 1)[1].split()
        except OSError:
            continue
        ticks += int(fields[11]) + int(fields[12])  # utime, stime
    return ticks / TICKS_PER_S


def quiet_processes(deployment: Deployment, counting: Counting) -> CountedProcesses:
    """Its processes once two looks QUIET_S apart find the same ones, having used at most
    IDLE_SHARE of a core between; a LayerbenchError after QUIET_CAP_S."""
    deadline = time.monotonic() + QUIET_CAP_S
    while True:
        before = process_roles(deployment, counting.runs_application)
        used, since = cpu_s(before.pids()), time.monotonic()
        pause(QUIET_S)  # cut short when the count is stopped
        after = process_roles(deployment, counting.runs_application)
        used = cpu_s(after.pids()) - used
        if after.roles == before.roles and used <= IDLE_SHARE * (time.monotonic() - since):
            return after
        if time.monotonic() > deadline:
            raise LayerbenchError(
                f"the server's processes were still starting or busy after {QUIET_CAP_S:.0f} s "
                f"(last {used:.1f} CPU s in {QUIET_S:g} s)"
            )
