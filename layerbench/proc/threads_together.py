"""Threads started together, stopped together, and waited for even when the wait is
interrupted (Ctrl-C).

Each thread runs ``work(number, start, stop)``: it prepares (a connection, a namespace), calls
``start()`` — a barrier every thread and the caller pass at once, so the clock starts when all
are ready — and works until done or until ``stop`` is set. The first error of a thread is raised
in the caller, after every thread has ended. An interruption of the caller sets ``stop`` and
breaks the barrier, and the threads are waited for before it goes on.

A thread is not left to finish what it is waiting for: a stop (the caller interrupted, or a
thread failed) also ends at once every process the threads started and have not stopped
(:mod:`~layerbench.proc.thread_processes`), so their waits return, and a start after it raises
ThreadStopped in the thread, which then unwinds as the main thread does on Ctrl-C (its ``with``
blocks stop its servers and remove their directories). A thread ended that way is no error.

Why not ``Thread.join`` alone: in CPython 3.11 (Debian 12's) a KeyboardInterrupt raised inside
``join`` while the thread still runs releases the thread's state lock and marks it stopped
(``_wait_for_tstate_lock``'s ``except`` path), so a second ``join`` returns at once with the
thread still running. Each thread here sets an event of its own as its last act, and the caller
waits on those (an interrupted ``Event.wait`` leaves nothing behind) before joining. The threads
are launched with SIGINT, SIGTERM and SIGHUP deferred in the caller (one is raised once all
are running): a thread whose launch was interrupted halfway could not be told from one never
launched (see :mod:`~layerbench.proc.interruptions_deferred`).
"""

import threading
import time
from collections.abc import Callable
from contextlib import suppress

from layerbench.proc.interruptions_deferred import interruptions_deferred
from layerbench.proc.process import STOP_GRACE_S
from layerbench.proc.thread_processes import ThreadProcesses, ThreadStopped

# How often the caller, waiting for the threads, wakes to handle a signal another thread took.
WAKE_S = 0.1

Work = Callable[[int, Callable[[], object], threading.Event], None]


def run_together(count: int, work: Work, *, start_limit_s: float = 60.0) -> float:
    """``count`` threads running ``work``; the seconds from their common start to the last
    one's end. A thread's error is raised (the first); a thread that fails before it starts
    breaks the barrier, so the others do not wait for it."""
    start = threading.Barrier(count + 1, timeout=start_limit_s)
    stop = threading.Event()
    ended = [threading.Event() for _ in range(count)]
    errors: list[BaseException] = []
    passed = threading.Event()  # every thread and the caller were at the start
    started = ThreadProcesses()

    def start_together() -> None:
        start.wait()
        passed.set()

    def free_the_start() -> None:
        """Those waiting at the start let go, once it is known that not all will come. Never
        once it was passed: a thread released but still on its way out of ``Barrier.wait``
        would raise BrokenBarrierError and skip its work (seen: 142 of 200 runs of 3 threads,
        one failing right after the start, under load)."""
        if not passed.is_set():
            start.abort()

    def run(number: int) -> None:
        try:
            with started.entered():
                work(number, start_together, stop)
        except (threading.BrokenBarrierError, ThreadStopped):
            pass  # another thread failed first, or the caller was interrupted: raised there
        except BaseException as error:  # raised in the caller below
            errors.append(error)
            free_the_start()
            _stop(stop, started)
        finally:
            ended[number].set()

    threads = [threading.Thread(target=run, args=(number,)) for number in range(count)]
    began = time.monotonic()
    try:
        with interruptions_deferred():
            for thread in threads:
                thread.start()
        with suppress(threading.BrokenBarrierError):
            start_together()
        began = time.monotonic()
        _wait(ended)
    except BaseException:
        free_the_start()
        _stop(stop, started)
        _wait([ended[n] for n, thread in enumerate(threads) if thread.ident is not None])
        raise
    finally:
        for thread in threads:
            if thread.ident is not None:  # launched (all are, unless one failed to launch)
                thread.join()
    elapsed_s = time.monotonic() - began
    if errors:
        raise errors[0]
    return elapsed_s


def _stop(stop: threading.Event, started: ThreadProcesses) -> None:
    """``stop`` set and the processes the threads ``started`` ended (a bounded wait: their
    grace, then SIGKILL); Ctrl-C meanwhile raised once it is done."""
    stop.set()
    with interruptions_deferred():
        started.end(STOP_GRACE_S)


def _wait(ended: list[threading.Event]) -> None:
    """Until every event is set, waking every WAKE_S: a signal the kernel gave one of the
    threads is handled only by the main thread, once it runs (not while it is blocked)."""
    for event in ended:
        while not event.wait(WAKE_S):
            pass
