"""Ctrl-C, SIGTERM and SIGHUP deferred for a moment in which a KeyboardInterrupt would be lost
or would leave a half-done state, and raised on the way out.

Two such moments in layerbench:

- Forking a child with a ``preexec_fn`` (:mod:`~layerbench.proc.process`): CPython runs its
  at-fork hooks around the fork, Python functions such as logging's lock release, and a
  KeyboardInterrupt raised inside one of them is printed as "Exception ignored" and dropped:
  Ctrl-C was lost and ``layerbench cluster`` went on running.
- Launching threads (:mod:`~layerbench.proc.threads_together`): a thread whose launch was
  interrupted halfway could not be told from one never launched.

Holding the signals back with the thread's mask is not enough: a signal sent to the process is
then taken by another thread, and CPython still raises it in the main thread at its next check,
inside the hook. So while deferred, the main thread's handlers of SIGINT, SIGTERM and SIGHUP (a
closed terminal, which the CLI takes as SIGTERM) only note the signal; on the way out the
handlers are put back and a noted signal is raised again, to the handler that was there. Only
the main thread runs Python signal handlers: in any other thread there is nothing to defer.
"""

import signal
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import FrameType
from typing import Any

INTERRUPTIONS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)
Handler = Callable[[int, FrameType | None], Any] | int | None  # what signal.signal takes


@contextmanager
def interruptions_deferred() -> Iterator[None]:
    """SIGINT, SIGTERM and SIGHUP noted while inside and raised again on the way out (in the main
    thread; elsewhere nothing changes). A signal ignored stays ignored."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    noted: list[int] = []

    def note(signum: int, frame: FrameType | None) -> None:
        if signum not in noted:
            noted.append(signum)

    replaced: dict[signal.Signals, Handler] = {}
    try:
        for signum in INTERRUPTIONS:
            handler = signal.getsignal(signum)
            if handler not in (signal.SIG_IGN, None):
                replaced[signum] = signal.signal(signum, note)
        yield
    finally:
        for signum, handler in replaced.items():
            signal.signal(signum, handler)
        for taken in noted:
            signal.raise_signal(taken)  # its own handler's way: KeyboardInterrupt
