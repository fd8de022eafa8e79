"""The processes a set of threads started, ended at once when the threads are told to stop.

Only the main thread hears Ctrl-C (or SIGTERM, or SIGHUP). A thread of
:mod:`~layerbench.proc.threads_together` waiting for a process it started (a counted window under
callgrind lasts up to half an hour) hears nothing, and an interrupted run waited for it. So while
such threads run, each :class:`~layerbench.proc.process.ManagedProcess` one of them starts is
noted in their :class:`ThreadProcesses`, from its start to its stop. :meth:`ThreadProcesses.end`
ends every group noted as a process's own stop does (:func:`~layerbench.proc.watchdog.end_group`:
its stop signal, SIGKILL after the grace), without reaping it, so that every wait on them returns
at once; from then on a start in those threads raises :class:`ThreadStopped` (one forked
meanwhile is ended by the thread that started it, at once), and so does a :func:`pause` (a sleep
between two looks at a server). Each thread then unwinds as the main thread does on Ctrl-C: its
``with`` blocks stop what it started, the processes reaped and their watchdogs let go, its
servers' directories and what they kept outside them released.

A group is ended only while its leader has not been reaped: until then no other process can take
its number.
"""

import signal
import subprocess
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass

from layerbench.proc import watchdog


class ThreadStopped(KeyboardInterrupt):
    """A start refused in a thread told to stop: it unwinds as an interrupted main thread does
    (not an error: the stop says why)."""


@dataclass(frozen=True)
class _Group:
    leader: subprocess.Popen[bytes]
    stop_signal: signal.Signals


class ThreadProcesses:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._groups: dict[int, _Group] = {}
        self._ended = threading.Event()
        self._grace_s = 0.0

    @contextmanager
    def entered(self) -> Iterator[None]:
        """Within: the processes this thread starts are noted here."""
        _current.noted = self
        try:
            yield
        finally:
            _current.noted = None

    def end(self, grace_s: float) -> None:
        """End every group noted, all at once, each given ``grace_s``; refuse any start after."""
        with self._lock:
            self._grace_s = grace_s
            self._ended.set()
            groups = list(self._groups.values())
        if groups:
            with ThreadPoolExecutor(len(groups)) as ending:
                list(ending.map(lambda group: _end(group, grace_s), groups))

    def _refuse_if_ended(self) -> None:
        if self._ended.is_set():
            raise ThreadStopped

    def _pause(self, seconds: float) -> None:
        if self._ended.wait(seconds):
            raise ThreadStopped

    def _note(self, leader: subprocess.Popen[bytes], stop_signal: signal.Signals) -> None:
        with self._lock:
            ended = self._ended.is_set()
            if not ended:
                self._groups[leader.pid] = _Group(leader, stop_signal)
        if ended:  # told to stop as it was forked
            _end(_Group(leader, stop_signal), self._grace_s)

    def _forget(self, pid: int) -> None:
        with self._lock:
            self._groups.pop(pid, None)


class _Current(threading.local):
    noted: ThreadProcesses | None = None


_current = _Current()


def refuse_if_stopped() -> None:
    """Raise ThreadStopped in a thread whose processes were ended (before a start)."""
    if _current.noted is not None:
        _current.noted._refuse_if_ended()


def pause(seconds: float) -> None:
    """``time.sleep``, cut short in a thread whose processes are ended: ThreadStopped at once
    (there is nothing left to wait for)."""
    if _current.noted is None:
        time.sleep(seconds)
    else:
        _current.noted._pause(seconds)


def note(leader: subprocess.Popen[bytes], stop_signal: signal.Signals) -> ThreadProcesses | None:
    """``leader``'s group noted, if this thread's processes are (what it was noted in, for
    :func:`forget`); ended at once if they were ended meanwhile."""
    noted = _current.noted
    if noted is not None:
        noted._note(leader, stop_signal)
    return noted


def forget(noted: ThreadProcesses | None, pid: int) -> None:
    """The group ``pid`` no longer noted (its own stop begins)."""
    if noted is not None:
        noted._forget(pid)


def _end(group: _Group, grace_s: float) -> None:
    if group.leader.returncode is None:  # not reaped: the group is still its own
        watchdog.end_group(group.leader.pid, group.stop_signal, grace_s)
