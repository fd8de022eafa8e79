"""The one lifecycle of servers and services (layerbench.proc.lifecycle), on real processes: each
launched is waited for until its probe says ready, checked alive, and stopped with the others;
a start that fails leaves nothing once stopped, and a new start after a stop is a new main
process."""

import os
import signal
from collections.abc import Callable
from pathlib import Path

import pytest

from layerbench.errors import ServerDiedError, ServerStartError
from layerbench.proc.lifecycle import ProcessLifecycle
from layerbench.proc.process import ManagedProcess
from tests.service_nodes import alive

UP = "echo up; exec sleep 60"


class Sleepers(ProcessLifecycle):
    """``count`` processes that say "up" and sleep, each ready once it has said so."""

    name = "sleepers"
    stop_signal = signal.SIGINT

    def __init__(self, workdir: Path, commands: list[str], start_timeout_s: float = 10.0) -> None:
        super().__init__(cpus=None, start_timeout_s=start_timeout_s)
        self.workdir = workdir
        self.commands = commands
        self.launched: list[ManagedProcess] = []

    def environment(self) -> dict[str, str]:
        return {"PATH": "/usr/bin:/bin", "GREETING": "up"}

    def start(self) -> "Sleepers":
        for number, command in enumerate(self.commands, 1):
            process = self.launch(
                f"sleeper{number}", ["sh", "-c", command], log_path=self.workdir / f"{number}.log"
            )
            self.launched.append(process)
            self.wait_ready(process, said_up(process), interval_s=0.01)
        return self


def said_up(process: ManagedProcess) -> Callable[[], str | None]:
    return lambda: None if process.log_tail(1) == "up" else "not up yet"


def test_every_process_is_ready_listed_checked_and_stopped(tmp_path: Path) -> None:
    sleepers = Sleepers(tmp_path, ['echo "$GREETING"; exec sleep 60'] * 3)
    with sleepers:
        pids = sleepers.pids
        assert len(pids) == 3 and pids[0] == sleepers.pid
        assert all(alive(pid) for pid in pids)
        sleepers.check_alive()
        assert sleepers.running()
    assert [pid for pid in pids if alive(pid)] == []
    assert sleepers.log_tail() == "up"  # the main process's log stays readable


def test_a_process_that_exits_fails_check_alive_with_its_name_and_log(tmp_path: Path) -> None:
    on_usr1 = "trap 'echo bye; exit 3' USR1; echo up; while :; do sleep 0.05; done"
    with Sleepers(tmp_path, [UP, on_usr1]) as sleepers:
        os.kill(sleepers.launched[1].pid, signal.SIGUSR1)
        assert sleepers.launched[1].wait() == 3
        with pytest.raises(ServerDiedError) as died:
            sleepers.check_alive()
    assert str(died.value) == (
        "sleeper2 exited unexpectedly (exit status 3); last lines of its log:\nup\nbye"
    )


def test_a_process_that_exits_while_starting_fails_the_start_with_its_log(
    tmp_path: Path,
) -> None:
    sleepers = Sleepers(tmp_path, [UP, "echo broken; exit 4"])
    with pytest.raises(ServerStartError) as raised:
        sleepers.start()
    assert str(raised.value).startswith("sleeper2 did not start: it exited with status 4")
    assert raised.value.log_tail == "broken"
    pids = sleepers.pids
    assert len(pids) == 2  # the failed one too: stop ends it with the rest
    sleepers.stop()
    assert [pid for pid in pids if alive(pid)] == []


def test_a_start_without_progress_fails_after_the_start_timeout(tmp_path: Path) -> None:
    sleepers = Sleepers(tmp_path, ["echo waiting; exec sleep 60"], start_timeout_s=0.3)
    with pytest.raises(ServerStartError, match=r"no answer within 0 s \(last: not up yet\)"):
        sleepers.start()
    sleepers.stop()
    assert not alive(sleepers.pid)


def test_after_a_stop_the_next_start_has_a_new_main_process(tmp_path: Path) -> None:
    sleepers = Sleepers(tmp_path, [UP])
    with sleepers:
        first = sleepers.pid
    assert sleepers.pids == () and sleepers.pid == first and not sleepers.running()
    with sleepers:
        second = sleepers.pid
        assert second != first
        assert list(sleepers.pids) == [second]
    sleepers.check_alive()  # nothing runs: nothing to have died


def test_nothing_started_is_said_so() -> None:
    sleepers = Sleepers(Path("/nonexistent"), [])
    assert not sleepers.started
    with pytest.raises(RuntimeError, match="sleepers was not started"):
        sleepers.log_tail()
