"""How fast the server's CPU is just before a trial: a fixed loop of Python work, timed by the
CPU time it took, on the server's CPUs while the server is idle.

On a virtual machine the same work can take a different CPU time from one minute to the next
(the host's other guests, a busy sibling hyperthread, the host's clock frequency), and no
counter inside the guest shows it: steal counts only time the vCPU did not run at all. The probe
does: if its rate moves between trials as the rung's req/s does, the machine changed speed and
the server did not change cost. It runs three short rounds and keeps the fastest, so that an
interrupt in one round does not count as a slow CPU.
"""

import os
import time

ROUNDS = 3
# About 10 ms a round on this project's machines.
ITERATIONS = 150_000
MODULUS = 1_000_003


def probe_cpu_speed(cpus: frozenset[int] | None) -> float:
    """Iterations of the probe loop per CPU-millisecond on ``cpus`` (this thread's CPUs when
    None): a relative speed, to compare trials of one run with."""
    before = os.sched_getaffinity(0)
    if cpus:
        os.sched_setaffinity(0, cpus)
    try:
        return max(_round() for _ in range(ROUNDS))
    finally:
        if cpus:
            os.sched_setaffinity(0, before)


def _round() -> float:
    started = time.thread_time()
    total = 0
    for i in range(ITERATIONS):
        total = (total + i * i) % MODULUS
    spent = time.thread_time() - started
    return ITERATIONS / (spent * 1000) if spent > 0 else 0.0
