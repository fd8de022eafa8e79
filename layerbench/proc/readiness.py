"""Waiting for a started process to be ready: its probe, repeated until it answers, the process
exits, or the start stops making progress. One loop for servers and backing services alike;
each brings its own probe (an HTTP request, a protocol's real query).

The timeout is a time without progress, not a wall time: on a loaded machine (CI shares ours,
at a load average of 15 to 30) a start takes as long as the CPU it gets, and five children
importing an application side by side on two cores took 14 s each. A start whose processes
keep announcing they have loaded, or keep using CPU (:mod:`layerbench.proc.start_progress`), is
given more time, up to START_CAP_S in all; one that does neither for the timeout has failed."""

import time
from collections.abc import Callable

from layerbench.errors import ServerStartError
from layerbench.proc.process import ManagedProcess

# None once the process is ready; otherwise why not yet (the last reason is shown when it never
# is). A probe that finds the start hopeless raises ServerStartError itself.
ReadinessProbe = Callable[[], str | None]
# True when the start has moved since it was last asked (a StartProgress).
Progress = Callable[[], bool]
# The most any start that keeps progressing is given: a server that spins, or restarts crashing
# processes, uses CPU without ever answering. Generous: the slowest start measured on the
# loaded CI machine took 39 s (Rails under puma, at a load average of 40).
START_CAP_S = 300.0


def wait_until_ready(
    process: ManagedProcess,
    name: str,
    probe: ReadinessProbe,
    *,
    timeout_s: float,
    interval_s: float,
    progress: Progress | None = None,
    cap_s: float = START_CAP_S,
    clock: Callable[[], float] = time.monotonic,
    sleep: Callable[[float], None] = time.sleep,
) -> None:
    """Return once ``probe`` says ready; raise ServerStartError, with the end of the process's
    log, when it exits first, or ``timeout_s`` passes without ``progress`` (without progress
    at all when there is none to ask), or ``cap_s`` passes (the probe runs at least once)."""
    began = last_progress = clock()
    while True:
        status = process.returncode()
        if status is not None:
            raise ServerStartError(name, f"it exited with status {status}", process.log_tail())
        reason = probe()
        if reason is None:
            return
        now = clock()
        if progress is not None and progress():
            last_progress = now
        if now - began >= cap_s:
            raise ServerStartError(
                name,
                f"no answer within {cap_s:.0f} s, the most a start is given (last: {reason})",
                process.log_tail(),
            )
        if now - last_progress >= timeout_s:
            raise ServerStartError(
                name, _stalled(now - began, timeout_s, reason), process.log_tail()
            )
        sleep(interval_s)


def _stalled(waited_s: float, timeout_s: float, reason: str) -> str:
    """The message of a start that stopped progressing: its shape when it never did."""
    if waited_s < timeout_s + 1.0:
        return f"no answer within {timeout_s:.0f} s (last: {reason})"
    return (
        f"no answer within {waited_s:.0f} s, the last {timeout_s:.0f} s without progress"
        f" (last: {reason})"
    )
