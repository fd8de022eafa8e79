"""Work a server does per second, not per request, kept out of the per-request figure.

A server's processes do work on timers: gunicorn's arbiter wakes every second to look at its
workers, a gthread worker's loop every second it has nothing to do, Apache's parent runs its
maintenance once a second. Counted over a window of requests, that work grows with the window's
duration, not with its requests; under callgrind a window of 600 requests lasts about three
times one of 200, so a difference of the two windows counted the timers' work of the extra
seconds as if the extra requests had done it, at the pace callgrind served them that day.

So the two windows last the same time (:mod:`layerbench.served.paced_windows`): each sends its
requests at a fixed rate over a duration chosen for the long one, then waits until the duration
has passed, and the timers' work is in both windows alike and cancels. What is left of it:

- **a duration that still differs** (a window whose requests came late, vgdb's latency): what
  each role does per second, counted in a window of that duration with no request (the
  **idle rate**), times the difference of the two sizes' mean durations, is taken off;
- **quantization**: a timer of period ``p`` fires ``floor(T / p)`` or ``ceil(T / p)`` times in
  ``T`` seconds, so two windows of equal duration may hold one fire more or less. The idle
  window of ``T`` seconds held at least ``T / p - 1`` fires, so for a timer of period up to
  TIMER_S one fire is at most ``idle count x TIMER_S / (T - TIMER_S)`` (the idle rate times a
  little more than TIMER_S: windows last at least MIN_SECONDS); a timer of longer period
  (gunicorn's sync worker wakes every 15 s idle) fires in some windows and not others, which
  shows as the spread between windows of a size.

A role's **uncertainty** per request is that quantum, plus half the spread of each size's
windows (their counts less the idle rate times their duration: a round whose windows lasted
longer is no spread), plus the duration correction itself (whether a timer runs while requests
are served too, or only while idle, as a gthread worker's, is not known: the correction may be
all wrong), over the requests between the two sizes. A role whose figure is within its
uncertainty of zero did no measurable work per request: it is shown as ``0 ± u`` with its idle
rate beside it, not as the noise it counted; the total adds what is shown."""

from collections.abc import Mapping, Sequence

# The longest timer period whose one fire is bounded from the idle window (gunicorn's arbiter,
# gthread's loop, Apache's maintenance: 1 s; uvicorn's ping: 0.5 s).
TIMER_S = 1.0
# The shortest window: long enough that the idle window's count bounds one fire.
MIN_SECONDS = 4 * TIMER_S


def rates(counted: Mapping[str, float], seconds: float) -> dict[str, float]:
    """Per key (an event, a system call), what ``counted`` counted per second of ``seconds``."""
    if seconds <= 0:
        raise ValueError(f"a window of {seconds} s has no rate")
    return {key: value / seconds for key, value in counted.items()}


def timed_per_request(  # noqa: PLR0917 (the two windows, each a count, a duration, requests)
    short: Mapping[str, float],
    short_seconds: float,
    short_requests: int,
    long: Mapping[str, float],
    long_seconds: float,
    long_requests: int,
    per_second: Mapping[str, float],
) -> dict[str, float]:
    """Per key, ``(long - short - per_second x (long_seconds - short_seconds)) / (long_requests
    - short_requests)``: the difference with the work of the extra seconds taken off."""
    if long_requests <= short_requests:
        raise ValueError(f"the long window ({long_requests}) must serve more than {short_requests}")
    extra = long_requests - short_requests
    later = long_seconds - short_seconds
    keys = list(dict.fromkeys([*short, *long]))
    return {
        key: (long.get(key, 0.0) - short.get(key, 0.0) - per_second.get(key, 0.0) * later) / extra
        for key in keys
    }


def half_range(values: Sequence[float]) -> float:
    return (max(values) - min(values)) / 2 if values else 0.0


def one_fire(per_second: float, idle_seconds: float) -> float:
    """The most one fire of a timer of period up to TIMER_S can count, from what the idle
    window of ``idle_seconds`` counted per second: it held at least ``idle_seconds / TIMER_S -
    1`` fires."""
    if idle_seconds <= TIMER_S:
        raise ValueError(f"an idle window of {idle_seconds} s bounds no timer of {TIMER_S} s")
    return abs(per_second) * idle_seconds * TIMER_S / (idle_seconds - TIMER_S)


def uncertainty(  # noqa: PLR0917 (each part of the uncertainty)
    per_second: float,
    idle_seconds: float,
    short_counts: Sequence[float],
    long_counts: Sequence[float],
    seconds_apart: float,
    extra_requests: int,
) -> float:
    """Per request: one timer's fire (:func:`one_fire`), half the spread of each size's counts,
    and the duration correction (``per_second x seconds_apart``), over the requests between
    the sizes."""
    parts = (
        one_fire(per_second, idle_seconds)
        + half_range(short_counts)
        + half_range(long_counts)
        + abs(per_second * seconds_apart)
    )
    return parts / extra_requests


def shown(value: float, within: float | None) -> float:
    """``value``, or 0 when it is within ``within`` of zero (no measurable work per request)."""
    return 0.0 if within is not None and abs(value) <= within else value
