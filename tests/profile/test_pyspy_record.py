"""py-spy attached to a server's Python workers: the leaves of its Python process tree, sampled
from the end of the warm-up until stopped, their samples merged."""

import sys
import time
from pathlib import Path

from layerbench.proc.process import ManagedProcess
from layerbench.profile.pyspy_record import (
    PySpyRecorder,
    check_profiling,
    ptrace_refusal,
    python_workers,
)

# A master that starts one worker, which spins in a function of its own, and waits.
WORKER = "def spin():\n    while True:\n        sum(range(1000))\nspin()\n"
MASTER = (
    "import subprocess, sys, time\n"
    f"subprocess.Popen([sys.executable, '-c', {WORKER!r}])\n"
    "time.sleep(60)\n"
)


def test_the_workers_are_sampled_from_the_end_of_the_warm_up(tmp_path: Path) -> None:
    assert ptrace_refusal() is None  # the tests run as root, as CI does
    binary = check_profiling()
    master = ManagedProcess("master", [sys.executable, "-c", MASTER], log_path=tmp_path / "log")
    with master:
        deadline = time.monotonic() + 10
        while len(workers := python_workers({master.pid})) != 1 or workers[0] == master.pid:
            assert time.monotonic() < deadline, "the worker did not start"
            time.sleep(0.05)
        recorder = PySpyRecorder(binary, tmp_path, rate_hz=100)
        assert recorder.start({master.pid}, delay_s=0.3, label="t") == 1
        time.sleep(1.5)
        stacks = recorder.stop()
    assert sum(stacks.values()) > 0
    leaves = {stack[-1].split(" (")[0] for stack in stacks}
    # The master sleeps without the GIL: only the worker's spinning is sampled.
    assert leaves == {"spin"}


def test_a_recorder_stopped_before_its_warm_up_ends_has_no_samples(tmp_path: Path) -> None:
    master = ManagedProcess("worker", [sys.executable, "-c", WORKER], log_path=tmp_path / "log")
    with master:
        recorder = PySpyRecorder(check_profiling(), tmp_path)
        assert recorder.start({master.pid}, delay_s=30, label="early") == 1
        assert recorder.stop() == {}


def test_a_worker_that_dies_keeps_the_samples_taken_until_then(tmp_path: Path) -> None:
    worker = ManagedProcess("worker", [sys.executable, "-c", WORKER], log_path=tmp_path / "log")
    with worker:
        recorder = PySpyRecorder(check_profiling(), tmp_path)
        assert recorder.start({worker.pid}, delay_s=0, label="dies") == 1
        time.sleep(0.8)
        worker.stop()
        stacks = recorder.stop()
    assert sum(stacks.values()) > 0
    assert recorder.failures == []


def test_a_sampler_that_fails_is_named_with_its_last_words(tmp_path: Path) -> None:
    failing = tmp_path / "py-spy"
    failing.write_text("#!/bin/sh\necho 'Error: Permission denied (os error 13)'\nexit 1\n")
    failing.chmod(0o755)
    worker = ManagedProcess("worker", [sys.executable, "-c", WORKER], log_path=tmp_path / "log")
    with worker:
        recorder = PySpyRecorder(failing, tmp_path)
        assert recorder.start({worker.pid}, delay_s=0, label="fails") == 1
        log = tmp_path / f"profile-fails-{worker.pid}.log"
        deadline = time.monotonic() + 30
        while "Error" not in (log.read_text() if log.exists() else ""):
            assert time.monotonic() < deadline, "the failing sampler never ran"
            time.sleep(0.05)
        time.sleep(1.0)  # its exit, a moment after its last words
        assert recorder.stop() == {}
    assert recorder.failures == ["Error: Permission denied (os error 13)"]
