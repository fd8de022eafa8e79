"""Counted windows of one duration, whatever their requests: the timers a server runs fire as
often in a window of 200 requests as in one of 600, and their work cancels in the difference
(:mod:`layerbench.served.time_driven`).

The duration is chosen once the server is warm: PACE_REQUESTS requests sent one after the
other, timed, give the pace at which it serves them counted (under callgrind, or under strace);
each window then lasts PACE_MARGIN times what the long window's requests take at that pace, and
at least MIN_SECONDS (:mod:`layerbench.served.time_driven`).
A window sends its requests at a fixed rate (``layerbench-load --rate``), its requests over that
duration, then waits until the duration has passed. Both sizes are paced (the long window's
requests half a request's time apart, the short one's three and a half), so that each request
finds the server done with the one before, as it would in the other window, and no gap comes
near a timer that fires only while a process is idle (a second for gthread's loop). A window
whose requests come late (a machine busier than at the pace's measure) lasts longer: the rest of
its round lasts as long as it did, so that a round's windows stay alike when the late one comes
first, and the windows of later rounds last PACE_MARGIN times as long as it did; the duration
each window lasted is kept, for what the difference of the sizes' mean durations still adds."""

import time
from collections.abc import Callable
from typing import Protocol

from layerbench.served.time_driven import MIN_SECONDS

PACE_REQUESTS = 30
PACE_MARGIN = 1.5


class PacedLoad(Protocol):
    """What sends a window's requests (a :class:`~layerbench.served.fixed_load.FixedLoad`)."""

    def send(self, requests: int, label: str, rate: float | None = None) -> object: ...


class Pacer:
    """The duration of each window, and its windows paced to it."""

    def __init__(
        self,
        seconds: float,
        margin: float = PACE_MARGIN,
        idle_s: float = 0.0,
        *,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        # The duration of the current round's windows (longer after a late window of it).
        self.seconds = seconds
        self.margin = margin
        self.idle_s = idle_s
        # The duration the next round's windows will last (longer after a late window).
        self._next = seconds
        self._clock = clock
        self._sleep = sleep

    @classmethod
    def measured(
        cls,
        load: PacedLoad,
        long: int,
        label: str,
        *,
        margin: float = PACE_MARGIN,
        least_s: float = MIN_SECONDS,
        idle_s: float = 0.0,
        around: Callable[[Callable[[], float]], float] | None = None,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], None] = time.sleep,
    ) -> "Pacer":
        """The pace of PACE_REQUESTS requests one after the other (timed inside ``around``, a
        counter attached meanwhile, when given), each window lasting ``margin`` times what
        ``long`` requests take at it, and at least ``least_s``."""

        def timed() -> float:
            started = clock()
            load.send(PACE_REQUESTS, label)
            return clock() - started

        took = around(timed) if around is not None else timed()
        paced = max(least_s, margin * long * took / PACE_REQUESTS)
        return cls(idle_s + paced, margin, idle_s, clock=clock, sleep=sleep)

    def window(self, load: PacedLoad, requests: int, label: str) -> float:
        """Idle ``idle_s``, send ``requests`` over the rest of the duration, wait until it has
        passed; the seconds it lasted (more than the duration when the requests came late: the
        rest of its round then lasts as long, and the next rounds longer still)."""
        opened = self._clock()
        self._sleep(self.idle_s)
        load.send(requests, label, rate=requests / (self.seconds - self.idle_s))
        served = self._clock() - opened
        if served < self.seconds:
            self._sleep(self.seconds - served)
        else:
            late = self.idle_s + (served - self.idle_s) * self.margin
            self._next = max(self._next, late)
            self.seconds = served
        return self._clock() - opened

    def next_round(self) -> None:
        """The windows from now on last as long as a late window asked."""
        self.seconds = max(self.seconds, self._next)

    def idle(self) -> float:
        """Wait the duration of a window, no request sent; the seconds it lasted."""
        opened = self._clock()
        self._sleep(self.seconds)
        return self._clock() - opened
