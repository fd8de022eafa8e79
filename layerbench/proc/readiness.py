"""Waiting for a started process to be ready: its probe, repeated until it answers, the process
exits, or the deadline passes. One loop for servers and backing services alike; each brings
its own probe (an HTTP request, a protocol's real query)."""

import time
from collections.abc import Callable

from layerbench.errors import ServerStartError
from layerbench.proc.process import ManagedProcess

# None once the process is ready; otherwise why not yet (the last reason is shown when it never
# is). A probe that finds the start hopeless raises ServerStartError itself.
ReadinessProbe = Callable[[], str | None]


def wait_until_ready(
    process: ManagedProcess,
    name: str,
    probe: ReadinessProbe,
    *,
    timeout_s: float,
    interval_s: float,
) -> None:
    """Return once ``probe`` says ready; raise ServerStartError, with the end of the process's
    log, when it exits first or ``timeout_s`` passes (the probe runs at least once)."""
    deadline = time.monotonic() + timeout_s
    while True:
        status = process.returncode()
        if status is not None:
            raise ServerStartError(name, f"it exited with status {status}", process.log_tail())
        reason = probe()
        if reason is None:
            return
        if time.monotonic() >= deadline:
            raise ServerStartError(
                name, f"no answer within {timeout_s:.0f} s (last: {reason})", process.log_tail()
            )
        time.sleep(interval_s)
