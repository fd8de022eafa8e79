"""An interruption (Ctrl-C, SIGTERM) that comes while layerbench forks a server's process is not
lost: CPython runs its at-fork hooks (Python functions) around that fork, and a KeyboardInterrupt
raised inside one is printed and dropped (``layerbench cluster`` went on running after Ctrl-C).
Deferred during the fork, it is raised by the start once the child is forked, and the child
does not outlive it; also when another thread is running, which takes a signal the main thread
holds back. Deferred, a signal is raised on the way out with the handlers put back; an ignored
one stays ignored."""

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from layerbench.proc.interruptions_deferred import INTERRUPTIONS, interruptions_deferred
from tests.service_nodes import alive

ROOT = Path(__file__).resolve().parent.parent.parent
# A SIGINT to the process from an at-fork hook: an interruption at the fork of the server's
# process, with another thread running (a writer, an executor's) as in a run.
START_INTERRUPTED_AT_THE_FORK = """
import os, signal, sys, threading
from pathlib import Path
from layerbench.proc.process import ManagedProcess

signal.signal(signal.SIGINT, signal.default_int_handler)
threading.Thread(target=threading.Event().wait, args=(60,), daemon=True).start()
os.register_at_fork(after_in_parent=lambda: os.kill(os.getpid(), signal.SIGINT))
child = ManagedProcess("sleeper", ["sleep", "60"], log_path=Path(sys.argv[1]))
try:
    child.start()
except KeyboardInterrupt:
    print("interrupted", child.pid, flush=True)
    sys.exit(0)
print("went on", child.pid, flush=True)
child.stop()
"""


def test_an_interruption_at_the_fork_of_a_server_is_raised_and_the_server_ended(
    tmp_path: Path,
) -> None:
    done = subprocess.run(
        [sys.executable, "-c", START_INTERRUPTED_AT_THE_FORK, str(tmp_path / "log")],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0 and "Exception ignored" not in done.stderr, done.stderr
    said, pid = done.stdout.split()
    assert said == "interrupted"
    deadline = time.monotonic() + 10  # the watchdog ends the child's group
    while alive(int(pid)) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not alive(int(pid))


def raise_interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


@pytest.mark.parametrize("sent", [signal.SIGINT, signal.SIGTERM, signal.SIGHUP])
def test_one_deferred_is_raised_on_the_way_out_with_the_handlers_put_back(
    sent: signal.Signals,
) -> None:
    # SIGTERM and SIGHUP as the CLI handles them: as Ctrl-C.
    previous = {signum: signal.getsignal(signum) for signum in (signal.SIGTERM, signal.SIGHUP)}
    for signum in previous:
        signal.signal(signum, raise_interrupt)
    try:
        handlers = [signal.getsignal(signum) for signum in INTERRUPTIONS]
        went_on = False
        with pytest.raises(KeyboardInterrupt), interruptions_deferred():
            os.kill(os.getpid(), sent)
            went_on = True
        assert went_on
        assert [signal.getsignal(signum) for signum in INTERRUPTIONS] == handlers
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)


def test_an_ignored_signal_stays_ignored() -> None:
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        with interruptions_deferred():
            assert signal.getsignal(signal.SIGINT) == signal.SIG_IGN
            os.kill(os.getpid(), signal.SIGINT)
    finally:
        signal.signal(signal.SIGINT, previous)
