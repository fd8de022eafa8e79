"""A usage error, in every run command, however it is found (argparse, the options, the server's
settings, the port): exit 2, one line on stderr saying what is wrong, no traceback, and nothing
started, measured, written or stored."""

import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from layerbench.proc.ports import LOOPBACK
from tests.cli_lines import said

LAYERBENCH = [sys.executable, "-m", "layerbench.cli"]
TAKEN = "{taken}"  # replaced by a port something listens on
SHORT = ["-d", "1", "--warmup", "0", "--repeats", "1"]
MIX = ["mix", "--hit", "0.9", *SHORT]


@pytest.fixture
def taken_port() -> Iterator[int]:
    with socket.socket() as listener:
        listener.bind((LOOPBACK, 0))
        listener.listen()
        yield listener.getsockname()[1]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["ladder", *SHORT, "--rungs", "strng"], "unknown rung strng"),
        (["ladder", *SHORT, "--server", "gunicron"], "invalid choice: 'gunicron'"),
        (["ladder", *SHORT, "--set", "gunicorn.wrokers=4"], "gunicorn has no setting wrokers"),
        (["ladder", *SHORT, "--set", "apahce.mpm=worker"], "no server reads settings for apahce"),
        (["ladder", *SHORT, "--port", "70000"], "not a whole number from 1 to 65,535"),
        (["ladder", *SHORT, "--port", TAKEN], "is already in use"),
        (["ladder", *SHORT, "--repeats", "many"], "'many' is not a whole number"),
        ([*MIX, "--miss-rung", "strng"], "unknown rung strng"),
        ([*MIX, "--server", "gunicron"], "invalid choice: 'gunicron'"),
        ([*MIX, "--set", "workers=two"], "gunicorn.workers is a whole number"),
        ([*MIX, "--port", TAKEN], "is already in use"),
        (["matrix", "--servers", "gunicorn", "--rung", "strng"], "invalid choice: 'strng'"),
        (["matrix", "--servers", "gunicron"], "unknown server 'gunicron'"),
        (["matrix", "--servers", "gunicorn", "--set", "gunicorn.wrokers=2"], "no setting wrokers"),
        (["ladder", *SHORT, "--app", "djnago"], "no application named 'djnago'"),
        ([*MIX, "--app", "djnago"], "no application named 'djnago'"),
        (["matrix", "--servers", "gunicorn", "--app", "djnago"], "no application named 'djnago'"),
        (["matrix", "--servers", "gunicorn:app=djnago"], "no application named 'djnago'"),
        (["matrix", "--servers", "gunicorn:app=bare:app=bare"], "one app= per column, not 2"),
        (["ladder", *SHORT, "--apps", "bare,djnago"], "no application named 'djnago'"),
        (["ladder", *SHORT, "--app", "flask", "--apps", "bare"], "--app or --apps, not both"),
        (["ladder", *SHORT, "--apps", "bare,bare"], "an application named twice: bare, bare"),
        (["ladder", *SHORT, "--apps", "bare,flask", "--port", "8000"], "not with several"),
    ],
)  # fmt: skip
def test_a_usage_error_exits_2_in_one_line_before_anything_starts(
    tmp_path: Path, results_database: Path, taken_port: int, args: list[str], message: str
) -> None:
    args = [str(taken_port) if arg == TAKEN else arg for arg in args]
    completed = subprocess.run(
        [*LAYERBENCH, *args], capture_output=True, text=True, cwd=tmp_path, timeout=60, check=False
    )
    assert completed.returncode == 2, completed.stderr
    assert said(completed.stderr).startswith("layerbench: error: "), completed.stderr
    assert message in completed.stderr
    assert len(said(completed.stderr).splitlines()) == 1, completed.stderr
    assert completed.stdout == ""
    # Nothing measured, written or stored.
    assert list(tmp_path.iterdir()) == []
    assert not results_database.exists()
