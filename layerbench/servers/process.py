"""A child process that never outlives us: its own process group, stopped as a whole.

Each child is started in a new session, so a terminal's Ctrl-C reaches only layerbench, which
then stops every child in order. The direct child also gets ``PR_SET_PDEATHSIG``: if layerbench
itself is killed outright, the kernel sends the child SIGTERM.
"""

import contextlib
import ctypes
import os
import signal
import subprocess
import time
from collections.abc import Sequence
from pathlib import Path
from types import TracebackType

from layerbench.servers.run_as import RunAs

PR_SET_PDEATHSIG = 1
STOP_GRACE_S = 5.0


def _child_setup(cpus: frozenset[int] | None) -> None:
    """Runs in the child between fork and exec: pin it, and tie its life to ours."""
    libc = ctypes.CDLL(None, use_errno=True)
    libc.prctl(PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0)
    if cpus:
        os.sched_setaffinity(0, cpus)


class ManagedProcess:
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

    def start(self) -> "ManagedProcess":
        with open(self.log_path, "ab") as log:
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
                preexec_fn=lambda: _child_setup(self._cpus),  # noqa: PLW1509
            )
        return self

    @property
    def pid(self) -> int:
        if self._popen is None:
            raise RuntimeError(f"{self.name} was not started")
        return self._popen.pid

    def returncode(self) -> int | None:
        """None while it runs; its exit status once it has exited."""
        return None if self._popen is None else self._popen.poll()

    def wait(self, timeout_s: float | None = None) -> int:
        if self._popen is None:
            raise RuntimeError(f"{self.name} was not started")
        return self._popen.wait(timeout_s)

    def log_tail(self, lines: int = 15) -> str:
        try:
            text = self.log_path.read_text(errors="replace")
        except OSError:
            return ""
        return "\n".join(text.rstrip().splitlines()[-lines:])

    def stop(self, grace_s: float = STOP_GRACE_S) -> None:
        """Signal the whole group (SIGTERM unless the program wants another for a fast, clean
        shutdown), wait for the leader, then SIGKILL whatever is left."""
        if self._popen is None:
            return
        group = self._popen.pid
        _signal_group(group, self._stop_signal)
        try:
            self._popen.wait(grace_s)
        except subprocess.TimeoutExpired:
            _signal_group(group, signal.SIGKILL)
            self._popen.wait()
        # Workers the leader forked may still be exiting, or orphaned if the leader was killed.
        deadline = time.monotonic() + grace_s
        while _group_alive(group) and time.monotonic() < deadline:
            time.sleep(0.02)
        _signal_group(group, signal.SIGKILL)

    def __enter__(self) -> "ManagedProcess":
        return self.start()

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.stop()


def _signal_group(group: int, signum: int) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.killpg(group, signum)


def _group_alive(group: int) -> bool:
    try:
        os.killpg(group, 0)
    except ProcessLookupError:
        return False
    return True
