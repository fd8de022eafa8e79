"""Threads started together and stopped together do not finish what they wait for
(layerbench/proc/thread_processes.py): an interruption of the caller ends at once the processes
the threads started (real ``sleep`` processes, which would otherwise run for ten minutes), a
thread's start after the stop is refused without being taken for an error, and a failing thread
ends the others' processes too."""

import os
import signal
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from layerbench.proc.process import ManagedProcess
from layerbench.proc.thread_processes import pause
from layerbench.proc.threads_together import run_together

# What each thread waits for: far longer than any test here may take.
SLEEP_S = 600


def _interrupt_once(ready: threading.Event) -> threading.Thread:
    """A thread that sends SIGINT to the main thread (Ctrl-C) once ``ready`` is set."""
    main = threading.main_thread().ident
    assert main is not None

    def interrupt() -> None:
        if ready.wait(60):
            signal.pthread_kill(main, signal.SIGINT)

    thread = threading.Thread(target=interrupt)
    thread.start()
    return thread


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state not in ("Z", "X")


def test_an_interrupted_caller_ends_the_processes_its_threads_wait_for(workdir: Path) -> None:
    statuses: dict[int, int] = {}
    pids: list[int] = []
    started = threading.Barrier(2)  # both threads have their process
    all_started = threading.Event()

    def work(number: int, start: Callable[[], object], stop: threading.Event) -> None:
        start()
        sleeping = ManagedProcess(
            "sleep", ["sleep", str(SLEEP_S)], log_path=workdir / f"sleep-{number}.log"
        )
        with sleeping:
            pids.append(sleeping.pid)
            if started.wait(60) == 0:
                all_started.set()
            statuses[number] = sleeping.wait()

    interrupter = _interrupt_once(all_started)
    began = time.monotonic()
    try:
        with pytest.raises(KeyboardInterrupt):
            run_together(2, work)
    finally:
        all_started.set()
        interrupter.join()
    assert time.monotonic() - began < SLEEP_S  # not waited for: ended
    assert statuses == {0: -signal.SIGTERM, 1: -signal.SIGTERM}
    assert len(pids) == 2 and not any(_alive(pid) for pid in pids)


def test_a_thread_told_to_stop_starts_nothing_more_and_that_is_no_error(workdir: Path) -> None:
    refused: list[BaseException] = []
    waiting = threading.Event()

    def work(number: int, start: Callable[[], object], stop: threading.Event) -> None:
        start()
        waiting.set()
        stop.wait(60)
        try:
            ManagedProcess("sleep", ["sleep", str(SLEEP_S)], log_path=workdir / "late.log").start()
        except BaseException as error:
            refused.append(error)
            raise

    interrupter = _interrupt_once(waiting)
    try:
        with pytest.raises(KeyboardInterrupt) as raised:
            run_together(1, work)
    finally:
        waiting.set()
        interrupter.join()
    assert type(raised.value) is KeyboardInterrupt  # the caller's, not the thread's refusal
    assert [type(error).__name__ for error in refused] == ["ThreadStopped"]
    assert not (workdir / "late.log").exists()  # refused before anything was made


def test_a_failing_thread_ends_the_processes_the_others_wait_for(workdir: Path) -> None:
    waiting = threading.Event()
    statuses: list[int] = []

    def work(number: int, start: Callable[[], object], stop: threading.Event) -> None:
        start()
        if number == 0:
            waiting.wait(60)
            raise ValueError("thread 0 failed")
        with ManagedProcess("sleep", ["sleep", str(SLEEP_S)], log_path=workdir / "s.log") as p:
            waiting.set()
            statuses.append(p.wait())

    began = time.monotonic()
    with pytest.raises(ValueError, match="thread 0 failed"):
        run_together(2, work)
    assert time.monotonic() - began < SLEEP_S
    assert statuses == [-signal.SIGTERM]


def test_a_process_started_outside_the_threads_is_left_alone(workdir: Path) -> None:
    """The caller's own processes (the run's services) are not the threads' to end."""
    waiting = threading.Event()
    with ManagedProcess("sleep", ["sleep", str(SLEEP_S)], log_path=workdir / "own.log") as own:

        def work(number: int, start: Callable[[], object], stop: threading.Event) -> None:
            start()
            waiting.set()
            stop.wait(60)

        interrupter = _interrupt_once(waiting)
        try:
            with pytest.raises(KeyboardInterrupt):
                run_together(1, work)
        finally:
            waiting.set()
            interrupter.join()
        assert own.returncode() is None and _alive(own.pid)
    assert os.path.exists(workdir / "own.log")


def test_a_pause_in_a_thread_told_to_stop_is_cut_short() -> None:
    """What a count does between two looks at its server (quiet_server.py) ends with it."""
    pausing = threading.Event()
    cut: list[str] = []

    def work(number: int, start: Callable[[], object], stop: threading.Event) -> None:
        start()
        pausing.set()
        try:
            pause(SLEEP_S)
        except BaseException as error:
            cut.append(type(error).__name__)
            raise

    interrupter = _interrupt_once(pausing)
    began = time.monotonic()
    try:
        with pytest.raises(KeyboardInterrupt):
            run_together(1, work)
    finally:
        pausing.set()
        interrupter.join()
    assert time.monotonic() - began < SLEEP_S
    assert cut == ["ThreadStopped"]
