"""Waiting for a started process (layerbench.proc.readiness): ready when its probe says so, a
start error with the process's log when it exits first or the deadline passes."""

from pathlib import Path

import pytest

from layerbench.errors import ServerStartError
from layerbench.proc.process import ManagedProcess
from layerbench.proc.readiness import wait_until_ready


def sleeper(tmp_path: Path) -> ManagedProcess:
    return ManagedProcess("sleep", ["sleep", "30"], log_path=tmp_path / "sleep.log")


def test_returns_once_the_probe_says_ready(tmp_path: Path) -> None:
    answers = iter(["starting", "starting", None])
    with sleeper(tmp_path) as process:
        wait_until_ready(process, "sleep", lambda: next(answers), timeout_s=5, interval_s=0.01)
    assert next(answers, "all asked") == "all asked"


def test_a_process_that_exits_is_a_start_error_with_its_log(tmp_path: Path) -> None:
    argv = ["sh", "-c", "echo cannot bind; exit 3"]
    with ManagedProcess("sh", argv, log_path=tmp_path / "sh.log") as process:
        process.wait(5)
        with pytest.raises(ServerStartError, match="it exited with status 3") as raised:
            wait_until_ready(process, "sh", lambda: "no answer", timeout_s=5, interval_s=0.01)
    assert "cannot bind" in str(raised.value)


def test_the_deadline_names_the_last_reason_after_one_probe_at_least(tmp_path: Path) -> None:
    reasons = iter(["refused", "timed out"])
    deadline_passed = pytest.raises(ServerStartError, match=r"within 0 s \(last: refused\)")
    with sleeper(tmp_path) as process, deadline_passed:
        wait_until_ready(process, "sleep", lambda: next(reasons), timeout_s=0, interval_s=0.01)


def test_a_probe_that_finds_the_start_hopeless_ends_it(tmp_path: Path) -> None:
    def hopeless() -> str | None:
        raise ServerStartError("sleep", "it answers HTTP 500")

    with sleeper(tmp_path) as process, pytest.raises(ServerStartError, match="answers HTTP 500"):
        wait_until_ready(process, "sleep", hopeless, timeout_s=5, interval_s=0.01)
