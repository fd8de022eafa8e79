"""Children never outlive us: the whole process group goes, grandchildren included."""

import os
import signal
import socket
import sys
import threading
import time
from pathlib import Path

import pytest

from layerbench.errors import PortInUseError
from layerbench.proc.ports import LOOPBACK, ensure_port_free, free_port
from layerbench.proc.process import WATCHDOG_SCRIPT, ManagedProcess
from tests.proc_scan import group_members
from tests.reaper import children_of


def our_watchdogs() -> set[int]:
    found = set()
    for pid in children_of(os.getpid()):
        try:
            if str(WATCHDOG_SCRIPT).encode() in Path(f"/proc/{pid}/cmdline").read_bytes():
                found.add(pid)
        except OSError:
            continue
    return found


def test_stop_ends_the_whole_group_even_when_the_leader_ignores_sigterm(tmp_path: Path) -> None:
    script = "trap '' TERM; sleep 60 & sleep 60 & echo started; wait"
    process = ManagedProcess("sh", ["sh", "-c", script], log_path=tmp_path / "log")
    process.start()
    deadline = time.monotonic() + 10
    while "started" not in process.log_tail() and time.monotonic() < deadline:
        time.sleep(0.01)
    assert len(group_members(process.pid)) == 3
    process.stop(grace_s=0.5)
    assert group_members(process.pid) == []
    assert process.returncode() is not None


def test_child_runs_on_the_cpus_it_was_given(tmp_path: Path) -> None:
    cpus = frozenset({min(os.sched_getaffinity(0))})
    code = "import os; print(sorted(os.sched_getaffinity(0)))"
    with ManagedProcess(
        "py", [sys.executable, "-c", code], log_path=tmp_path / "log", cpus=cpus
    ) as p:
        p.wait(10)
        assert p.log_tail() == str(sorted(cpus))


def test_log_tail_keeps_the_last_lines(tmp_path: Path) -> None:
    code = "for i in range(100): print(i)"
    with ManagedProcess("py", [sys.executable, "-c", code], log_path=tmp_path / "log") as p:
        p.wait(10)
        assert p.log_tail(lines=3) == "97\n98\n99"


def test_a_listening_port_is_reported_in_use() -> None:
    with socket.socket() as listener:
        listener.bind((LOOPBACK, 0))
        listener.listen()
        port = listener.getsockname()[1]
        with pytest.raises(PortInUseError, match=f"port {port} on {LOOPBACK} is already in use"):
            ensure_port_free(LOOPBACK, port)
    ensure_port_free(LOOPBACK, free_port())


def test_each_child_has_a_watchdog_that_leaves_with_it(tmp_path: Path) -> None:
    before = our_watchdogs()
    process = ManagedProcess("sleep", ["sleep", "60"], log_path=tmp_path / "log").start()
    assert len(our_watchdogs() - before) == 1
    process.stop()
    assert our_watchdogs() == before


def test_a_start_that_fails_leaves_no_watchdog(tmp_path: Path) -> None:
    before = our_watchdogs()
    process = ManagedProcess("none", [str(tmp_path / "no-program")], log_path=tmp_path / "log")
    with pytest.raises(FileNotFoundError):
        process.start()
    assert our_watchdogs() == before


def test_ctrl_c_during_a_stop_is_raised_once_the_group_has_ended(tmp_path: Path) -> None:
    # The leader notes each SIGTERM and leaves only once told to (the file `go`): the stop is
    # still waiting for it when Ctrl-C comes, however busy the machine.
    script = "trap 'echo term' TERM; echo started; while [ ! -e go ]; do sleep 0.05; done"
    before = our_watchdogs()
    process = ManagedProcess("sh", ["sh", "-c", script], log_path=tmp_path / "log", cwd=tmp_path)
    process.start()
    deadline = time.monotonic() + 30
    while "started" not in process.log_tail() and time.monotonic() < deadline:
        time.sleep(0.01)

    def interrupt_the_stop() -> None:
        while "term" not in process.log_tail():
            time.sleep(0.01)
        os.kill(os.getpid(), signal.SIGINT)
        (tmp_path / "go").touch()

    interrupter = threading.Thread(target=interrupt_the_stop, daemon=True)
    interrupter.start()
    with pytest.raises(KeyboardInterrupt):
        process.stop(grace_s=60)
    interrupter.join(30)
    assert group_members(process.pid) == []
    assert process.returncode() is not None
    assert our_watchdogs() == before


class CtrlCOnceTaken:
    """A lock that sends this process Ctrl-C the first time it is taken: the handler runs at
    the next bytecode check, just after the acquire, as a preemption on a loaded machine can
    make any Ctrl-C do."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.armed = True

    def acquire(self, blocking: bool = True, timeout: float = -1) -> bool:
        taken = self._lock.acquire(blocking, timeout)
        if taken and self.armed:
            self.armed = False
            os.kill(os.getpid(), signal.SIGINT)
        return taken

    def release(self) -> None:
        self._lock.release()

    def locked(self) -> bool:
        return self._lock.locked()

    def __enter__(self) -> bool:
        return self.acquire()

    def __exit__(self, *exc_info: object) -> None:
        self.release()


@pytest.mark.parametrize("asked", ["wait", "returncode"])
def test_ctrl_c_as_a_wait_takes_popen_s_lock_leaves_the_lock_free(
    tmp_path: Path, asked: str
) -> None:
    # Popen.wait and poll take this lock before their try/finally: a KeyboardInterrupt raised
    # there left it held, and the stop's wait then waited for it for ever.
    process = ManagedProcess("sleep", ["sleep", "60"], log_path=tmp_path / "log").start()
    lock = CtrlCOnceTaken()
    assert process._popen is not None
    process._popen._waitpid_lock = lock  # type: ignore[assignment]
    try:
        with pytest.raises(KeyboardInterrupt):
            if asked == "wait":
                process.wait(30)
            else:
                process.returncode()
        assert not lock.locked()
    finally:
        if not lock.locked():  # held, the stop would wait for ever
            process.stop()
    assert group_members(process.pid) == []
