"""A child process that never outlives us: its own process group, stopped as a whole.

Each child is started in a new session, so a terminal's Ctrl-C reaches only layerbench, which
then stops every child in order. If layerbench itself dies, even by SIGKILL, the child's
:mod:`watchdog <layerbench.proc.watchdog>` ends its group (that module says why a process
of its own, and how no moment of the start is left uncovered). The direct child also gets
``PR_SET_PDEATHSIG``, a second line should the watchdog itself be gone: the kernel sends it
SIGTERM when layerbench dies.
"""

import contextlib
import ctypes
import math
import os
import signal
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import IO

from layerbench.proc import thread_processes, watchdog
from layerbench.proc.interruptions_deferred import interruptions_deferred
from layerbench.proc.run_as import RunAs
from layerbench.proc.start_stop import StartStop

PR_SET_PDEATHSIG = 1
STOP_GRACE_S = 5.0
# Once layerbench is gone nobody waits for the servers' answers and their data is garbage: a
# short grace for a clean exit (PostgreSQL releases its System V segment), then SIGKILL.
WATCHDOG_GRACE_S = 2.0
WATCHDOG_SCRIPT = Path(watchdog.__file__)
# A wait polls the child, first after this, then twice as long each time up to WAIT_POLL_MAX_S
# (Popen.wait's own loop with a timeout does the same).
WAIT_POLL_FIRST_S = 0.001
WAIT_POLL_MAX_S = 0.05


def _child_setup(cpus: frozenset[int] | None, watchdog_pipe: int, parent: int) -> None:
    """Runs in the child between fork and exec: tell the watchdog our group, tie our life to
    our parent's, and pin us."""
    os.write(watchdog_pipe, f"{os.getpid()}\n".encode())
    libc = ctypes.CDLL(None, use_errno=True)
    libc.prctl(PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0)
    if os.getppid() != parent:  # it died before the prctl: no signal will come
        os._exit(1)
    if cpus:
        os.sched_setaffinity(0, cpus)


class ManagedProcess(StartStop):
    def __init__(
        self,
        name: str,
        argv: Sequence[str],
        *,
        log_path: Path,
        env: dict[str, str] | None = None,
        cpus: frozenset[int] | None = None,
        cwd: Path | None = None,
        run_as: RunAs | None = None,
        stop_signal: signal.Signals = signal.SIGTERM,
    ) -> None:
        self.name = name
        self.argv = list(argv)
        self.log_path = log_path
        self._env = env
        self._cpus = cpus
        self._cwd = cwd
        self._run_as = run_as
        self._stop_signal = stop_signal
        self._popen: subprocess.Popen[bytes] | None = None
        self._watchdog: subprocess.Popen[bytes] | None = None
        self._watchdog_pipe: int | None = None
        # Where its group is noted while it runs (started in threads that may be told to stop).
        self._noted: thread_processes.ThreadProcesses | None = None

    def start(self) -> "ManagedProcess":
        thread_processes.refuse_if_stopped()
        with open(self.log_path, "ab") as log:
            self._start_watchdog(log)
            watchdog_pipe, parent = self._watchdog_pipe, os.getpid()
            assert watchdog_pipe is not None
            try:
                # Ctrl-C or SIGTERM during the fork raised once it is done: inside CPython's
                # at-fork hooks it would be dropped.
                with interruptions_deferred():
                    self._popen = subprocess.Popen(
                        self.argv,
                        stdin=subprocess.DEVNULL,
                        stdout=log,
                        stderr=subprocess.STDOUT,
                        env=self._env,
                        cwd=self._cwd,
                        start_new_session=True,
                        user=None if self._run_as is None else self._run_as.uid,
                        group=None if self._run_as is None else self._run_as.gid,
                        extra_groups=None if self._run_as is None else [],
                        # layerbench starts children from its main thread only.
                        preexec_fn=lambda: _child_setup(self._cpus, watchdog_pipe, parent),  # noqa: PLW1509
                    )
                    self._noted = thread_processes.note(self._popen, self._stop_signal)
            except BaseException:
                # A child may have been forked (Ctrl-C during the start): the watchdog ends it.
                self._release_watchdog(ended=False)
                raise
        return self

    def _start_watchdog(self, log: IO[bytes]) -> None:
        read_end, write_end = os.pipe()  # both close-on-exec: no other child keeps them
        try:
            self._watchdog = subprocess.Popen(
                [
                    sys.executable,
                    "-I",
                    "-S",
                    str(WATCHDOG_SCRIPT),
                    str(int(self._stop_signal)),
                    str(WATCHDOG_GRACE_S),
                ],
                stdin=read_end,
                stdout=subprocess.DEVNULL,
                stderr=log,
                start_new_session=True,
            )
        except BaseException:
            os.close(write_end)
            raise
        finally:
            os.close(read_end)
        self._watchdog_pipe = write_end

    def _release_watchdog(self, *, ended: bool) -> None:
        """Close the watchdog's pipe and wait for it to leave: at once when the group has been
        ``ended`` here, otherwise once it has ended what is left of it."""
        if self._watchdog_pipe is not None:
            if ended:
                with contextlib.suppress(BrokenPipeError):
                    os.write(self._watchdog_pipe, watchdog.STOP_WORD + b"\n")
            os.close(self._watchdog_pipe)
            self._watchdog_pipe = None
        if self._watchdog is not None:
            self._watchdog.wait()
            self._watchdog = None

    @property
    def pid(self) -> int:
        if self._popen is None:
            raise RuntimeError(f"{self.name} was not started")
        return self._popen.pid

    def returncode(self) -> int | None:
        """None while it runs; its exit status once it has exited."""
        if self._popen is None:
            return None
        # Popen.poll and Popen.wait take a lock of the Popen's (_waitpid_lock) before their
        # try/finally: a KeyboardInterrupt raised just after it is taken (on a loaded machine
        # a preemption puts Ctrl-C there) leaves it held, and the next wait, the stop's,
        # waited for it for ever (the ladder hung on Ctrl-C in a trial's load generator). So
        # Ctrl-C is raised once the poll is done, never inside it.
        with interruptions_deferred():
            return self._popen.poll()

    def wait(self, timeout_s: float | None = None) -> int:
        """Its exit status once it exits; TimeoutExpired after ``timeout_s``. Ctrl-C is raised
        in a sleep between polls, or once a poll is done (see :meth:`returncode`)."""
        if self._popen is None:
            raise RuntimeError(f"{self.name} was not started")
        timeout = math.inf if timeout_s is None else timeout_s
        deadline = time.monotonic() + timeout
        delay = WAIT_POLL_FIRST_S
        while (status := self.returncode()) is None:
            left = deadline - time.monotonic()
            if left <= 0:
                raise subprocess.TimeoutExpired(self.argv, timeout)
            time.sleep(min(delay, left))
            delay = min(2 * delay, WAIT_POLL_MAX_S)
        return status

    def log_tail(self, lines: int = 15) -> str:
        try:
            text = self.log_path.read_text(errors="replace")
        except OSError:
            return ""
        return "\n".join(text.rstrip().splitlines()[-lines:])

    def stop(self, grace_s: float = STOP_GRACE_S) -> None:
        """End the whole group (see :func:`~layerbench.proc.watchdog.end_group`: SIGTERM, or
        the signal the program wants for a fast, clean shutdown, then SIGKILL), reap the
        leader, and let the watchdog go. A stop once begun is finished (it is bounded: the
        grace, then SIGKILL): Ctrl-C or SIGTERM meanwhile is raised once it is done. Raised
        halfway, the group was left to the watchdog, which ends it only once layerbench has
        exited, so a run interrupted as it stopped its server left the server running past
        its own end."""
        with interruptions_deferred():
            if self._popen is not None:
                thread_processes.forget(self._noted, self._popen.pid)
                watchdog.end_group(self._popen.pid, self._stop_signal, grace_s)
                self._popen.wait()
            self._release_watchdog(ended=self._popen is not None)
