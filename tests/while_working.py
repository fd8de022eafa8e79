"""Running a command for as long as it works: a run whose work is fixed (schemathesis's
examples) takes as long as the CPU the machine gives it, so it is not held to a wall time;
it fails when it stops working, neither it nor the server it talks to using CPU for a while
(:class:`~layerbench.proc.start_progress.StartProgress`: 0.5 s of CPU of a process's tree
counts as progress, as for a server's start)."""

import os
import signal
import subprocess
import time
from collections.abc import Iterable

from layerbench.proc.start_progress import StartProgress

# A window without progress: 0.5 s of CPU in a minute, under 1 % of one core, is given to the
# two process trees on any machine that still runs the tests.
IDLE_LIMIT_S = 60.0


def run_while_working(
    argv: list[str], *, also: Iterable[int] = (), idle_limit_s: float = IDLE_LIMIT_S
) -> subprocess.CompletedProcess[str]:
    """``argv`` run to its end, its output captured as text, while its process tree or that of
    any process in ``also`` (a server's main process) keeps using CPU; killed with its session,
    and AssertionError raised with its output, once neither has for ``idle_limit_s``."""
    with subprocess.Popen(
        argv,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
    ) as process:
        progress = [StartProgress(leader) for leader in (process.pid, *also)]
        last_progress = time.monotonic()
        while True:
            try:
                # Retried after a timeout, communicate loses none of the output.
                out, _ = process.communicate(timeout=1.0)
                break
            except subprocess.TimeoutExpired:
                now = time.monotonic()
                if any([moved() for moved in progress]):  # each asked: each keeps its mark
                    last_progress = now
                elif now - last_progress >= idle_limit_s:
                    os.killpg(process.pid, signal.SIGKILL)
                    out, _ = process.communicate()
                    raise AssertionError(
                        f"{argv[0]} used no CPU, nor did what it talks to, for "
                        f"{idle_limit_s:.0f} s: stuck; its output:\n{out[-6000:]}"
                    ) from None
    return subprocess.CompletedProcess(argv, process.returncode, out, "")
