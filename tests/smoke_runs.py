"""``layerbench smoke`` run as a user runs it, in its own process, or in this one (no
interpreter to start: for the errors found in a fraction of a second), and the project under
tests/smoke_apps that the tests measure (``--app-path``, as a user's checkout would be)."""

import io
import signal
import subprocess
import sys
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

from layerbench.cli.main import run

LAYERBENCH = [sys.executable, "-m", "layerbench.cli"]
SMOKE_APPS = Path(__file__).parent / "smoke_apps"
# The shortest run that still measures: for the tests whose verdict is not the point.
BRIEF = ["-d", "0.3", "--warmup", "0.1", "--repeats", "2"]


def smoke(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*LAYERBENCH, "smoke", *args], capture_output=True, text=True, cwd=cwd, timeout=180,
        check=False,
    )  # fmt: skip


def smoke_here(*args: str) -> subprocess.CompletedProcess[str]:
    """``smoke`` through the CLI's own ``run``, in this process: its exit status and output."""
    command = ["smoke", *args]
    stdout, stderr = io.StringIO(), io.StringIO()
    sigterm = signal.getsignal(signal.SIGTERM)
    try:
        with redirect_stdout(stdout), redirect_stderr(stderr):
            returncode = run(command)
    finally:
        signal.signal(signal.SIGTERM, sigterm)
    return subprocess.CompletedProcess(command, returncode, stdout.getvalue(), stderr.getvalue())


def shop(*args: str) -> list[str]:
    """The arguments for tests/smoke_apps' shop package: its application unless ``args`` start
    with another."""
    app = [] if args and ":" in args[0] else ["shop.wsgi:application"]
    return [*app, *args, "--app-path", str(SMOKE_APPS)]
