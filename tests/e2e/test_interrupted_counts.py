"""Ctrl-C or SIGTERM during a served count (``matrix --measure instructions --first-requests``,
what ``replicate --measure instructions`` runs for a claim about the first requests) ends the
count in progress at once, leaves nothing behind and keeps what was measured.

The count is made long on purpose: each request of the upstream rung waits UPSTREAM_MS for the
delaying server, and the count sends COUNT_REQUESTS of them one at a time, so its first window
alone takes COUNT_S. The run is interrupted once that window's load generator runs; it must exit
as an interrupted run does (130, one line, no traceback) long before the window could have ended,
with no process it started still alive, no work directory left, and the run's document marked
interrupted, holding the cell it measured and no count for the one cut short. The usual served
count (no --first-requests), made on the main thread, is held to the same (wide)."""

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from layerbench.served.served_windows import Windows
from tests.conftest import missing

LAYERBENCH = [sys.executable, "-m", "layerbench.cli"]
UPSTREAM_MS = 1000
COUNT_REQUESTS = 600
COUNT_S = COUNT_REQUESTS * UPSTREAM_MS / 1000
WINDOWS = Windows()
SINGLE_COUNT_S = (WINDOWS.warmup + WINDOWS.short + WINDOWS.long) * UPSTREAM_MS / 1000
# How long the run may take to get to the count (a gunicorn column's cell, then its start).
REACH_COUNT_S = 240


def descendants(pid: int) -> set[int]:
    """Every process below ``pid`` (its children, theirs...), by their parents in /proc."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            children.setdefault(int(stat[1]), []).append(int(entry))
    found, todo = set(), [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            found.add(child)
            todo.append(child)
    return found


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state not in ("Z", "X")


@dataclass(frozen=True)
class Interrupted:
    returncode: int
    stderr: str
    ended_s: float  # from the signal to the exit
    started: set[int]  # the run's processes when it was signalled
    left: list[Path]  # its TMPDIR's layerbench-* entries after it
    document: dict[str, Any]


def interrupted_run(
    workdir: Path, signum: signal.Signals, counted: list[str], window: str, count_s: float
) -> Interrupted:
    """A gunicorn column's matrix with ``--measure instructions`` and ``counted``, sent
    ``signum`` once the file ``window`` (in its work directory) says a counted window runs."""
    if shutil.which("strace") is None:
        missing("strace is not installed")
    temporary = workdir / "tmp"  # the run's TMPDIR: whatever it leaves is seen here
    temporary.mkdir()
    temporary.chmod(0o755)
    results = workdir / "matrix.json"
    stderr_path = workdir / "stderr.txt"
    argv = [
        *LAYERBENCH, "matrix", "--servers", "gunicorn", "--rung", "upstream",
        "--set", f"upstream.ms={UPSTREAM_MS}", "-c", "1", "-d", "2", "--warmup", "0",
        "--repeats", "1", "--measure", "instructions", *counted, "--json", str(results),
    ]  # fmt: skip
    with stderr_path.open("w") as stderr:
        run = subprocess.Popen(
            argv,
            stdout=subprocess.DEVNULL,
            stderr=stderr,
            env={**os.environ, "TMPDIR": str(temporary)},
        )
    try:
        deadline = time.monotonic() + REACH_COUNT_S
        while not list(temporary.glob(f"layerbench-matrix-*/{window}")):
            assert run.poll() is None, stderr_path.read_text()[-2000:]
            assert time.monotonic() < deadline, stderr_path.read_text()[-2000:]
            time.sleep(0.2)
        time.sleep(1.0)  # its load generator sending
        started = descendants(run.pid)
        signalled = time.monotonic()
        run.send_signal(signum)
        run.wait(timeout=count_s / 2)
        ended_s = time.monotonic() - signalled
    finally:
        if run.poll() is None:
            run.kill()
            run.wait()
    return Interrupted(
        run.returncode,
        stderr_path.read_text(),
        ended_s,
        started,
        list(temporary.glob("layerbench-*")),
        json.loads(results.read_text()),
    )


def assert_ended_cleanly(run: Interrupted, count_s: float) -> None:
    assert run.returncode == 130, run.stderr[-2000:]
    assert run.stderr.endswith("layerbench: interrupted\n"), run.stderr[-2000:]
    assert "Traceback" not in run.stderr, run.stderr[-2000:]
    assert run.ended_s < count_s  # the count was not waited for
    assert len(run.started) >= 5, run.started  # the services', the server's, strace's, the load's
    assert [pid for pid in run.started if alive(pid)] == []
    assert run.left == []
    assert run.document["interrupted"] is True
    assert [cell["status"] for cell in run.document["cells"]] == ["ok"]  # measured: kept


# SIGTERM reaches the run as SIGINT does (the CLI turns both into the same interruption):
# make test-wide sends it too.
@pytest.mark.parametrize(
    "signum",
    [signal.SIGINT, pytest.param(signal.SIGTERM, marks=pytest.mark.wide)],
    ids=["SIGINT", "SIGTERM"],
)
def test_a_count_interrupted_ends_at_once_and_leaves_nothing(
    workdir: Path, signum: signal.Signals
) -> None:
    """The first requests' count, in a thread of its own."""
    window = f"first-requests/count-1/served-0/load-first-syscalls-{COUNT_REQUESTS}.log"
    counted = ["--first-requests", str(COUNT_REQUESTS)]
    run = interrupted_run(workdir, signum, counted, window, COUNT_S)
    assert_ended_cleanly(run, COUNT_S)
    first = run.document["served"]["first_requests"]
    assert (first["requests"], first["counts"]) == (COUNT_REQUESTS, {"gunicorn": []}), first


@pytest.mark.wide
def test_a_single_count_interrupted_ends_at_once_and_leaves_nothing(workdir: Path) -> None:
    """The usual served count, on the main thread: its warm-up and one round of its windows
    alone take SINGLE_COUNT_S."""
    run = interrupted_run(workdir, signal.SIGINT, [], "served-0/load-*.log", SINGLE_COUNT_S)
    assert_ended_cleanly(run, SINGLE_COUNT_S)
    assert "served" not in run.document  # nothing counted: nothing to show
