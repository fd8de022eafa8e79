"""The tests of Ctrl-C run as usual under a runner that was handed SIGINT ignored (a background
job of a script, as when two test runs are started at once): the conftest gives Python's
handler back (without it, the interrupted caller's test waited for ever)."""

import os
import signal
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
RUN_IGNORING_SIGINT = """
import signal, subprocess, sys
signal.signal(signal.SIGINT, signal.SIG_IGN)
sys.exit(subprocess.call(sys.argv[1:]))
"""
INTERRUPTED_CALLER = (
    "tests/proc/test_threads_together.py"
    "::test_an_interrupted_caller_goes_on_only_once_every_thread_has_ended"
)


def test_the_interrupted_caller_test_passes_with_sigint_ignored_by_the_runner() -> None:
    pytest_run = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider"]
    runner = subprocess.Popen(
        [sys.executable, "-c", RUN_IGNORING_SIGINT, *pytest_run, INTERRUPTED_CALLER],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
    )
    try:
        out, _ = runner.communicate(timeout=120)
    finally:  # the runner and the pytest it started, should it hang
        if runner.poll() is None:
            os.killpg(runner.pid, signal.SIGKILL)
            runner.wait()
    assert runner.returncode == 0, out[-2000:]
