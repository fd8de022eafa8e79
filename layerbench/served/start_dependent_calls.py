"""System calls counted over several starts of a deployment, and which of them depend on the
start.

Some calls a server makes per request are races, not the request's own work: gunicorn's two
sync workers both wake for a connection when both wait in ``select`` (``pselect6``,
``accept4``, ``getppid``, ``utimensat`` counted by the one that loses too), Apache's event MPM's
listener takes an idle keep-alive connection or leaves it (``epoll_ctl``, ``epoll_wait``,
``read``). Which way the race goes settles with the processes' timing after a start and holds
for the start's rounds (mostly), so equal windows within one start do not cancel it: it shows
between starts. Each start counts its calls per request in rounds
(:mod:`layerbench.served.served_windows`); a call whose figures over every round of every start
lie further apart than the count can resolve **depends on the start** (a race that flips
within a start too is caught by its rounds, one that holds for a start by the starts):

- the **resolution** of one round's figure is one fire of a timer at the call's idle rate
  (:func:`~layerbench.served.time_driven.one_fire`, bounded with the shortest window) and one
  call more or less (a call in flight as strace attaches), over the requests between the two
  sizes; two rounds may differ by twice that;
- and a call whose figures span no more than RELATIVE_BOUND of their mean moves the request's
  calls by less than the agreement asked of two runs' figures.

Such a call, and a call in TIMING_CALLS whatever its figures (futex: threads handing the GIL
over), is listed with its range across starts and marked as timing, and left out of the
role's calls per request, which then hold the calls the request makes whatever the start. A
call's figure is its mean over the starts."""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from layerbench.served.served_windows import CountedSyscalls
from layerbench.served.syscall_counts import TIMING_CALLS
from layerbench.served.time_driven import one_fire

# A call whose figures span no more than this of their mean does not depend on the start: 0.5 %
# is the agreement asked of two runs' served figures.
RELATIVE_BOUND = 0.005
# A count can hold one call more or less than the request made (attached mid-call).
STRAY_CALLS = 1.0

RoleCalls = dict[str, dict[str, float]]


@dataclass(frozen=True)
class CallsOverStarts:
    """Per role: each call's mean per request over the starts; the calls that depend on
    timing (futex, and those that moved with the start), with their least and most figure
    over the starts; the within-start uncertainty (the most of the starts'); the mean calls
    per second while idle. And each start's own figures, and each of its rounds', per role by
    call."""

    per_request: RoleCalls
    timing: dict[str, dict[str, list[float]]]
    uncertainty: dict[str, float]
    idle_per_second: RoleCalls
    per_start: list[RoleCalls]
    rounds_per_start: list[list[RoleCalls]]


def resolution(idle_per_second: float, extra_requests: int, window_s: float) -> float:
    """What one round's figure of a call cannot resolve: one fire of a timer at its idle rate,
    in windows of at least ``window_s`` seconds, and one stray call, over ``extra_requests``."""
    return (one_fire(idle_per_second, window_s) + STRAY_CALLS) / extra_requests


def moved(figures: Sequence[float], resolved: float) -> bool:
    """Whether ``figures`` (a call's, one per round) lie further apart than two rounds'
    ``resolved`` and than RELATIVE_BOUND of their mean."""
    mean = sum(figures) / len(figures)
    return max(figures) - min(figures) > max(2 * resolved, RELATIVE_BOUND * abs(mean))


def marked_calls(
    per_round: Sequence[Mapping[str, float]],
    idle_per_start: Sequence[Mapping[str, float]],
    extra_requests: int,
    window_s: float,
) -> list[str]:
    """One role's calls that depend on timing: TIMING_CALLS, and those whose figures over the
    rounds (of every start) moved; a call a round did not make counted 0 there."""
    names = dict.fromkeys(name for each in per_round for name in each)
    marked = []
    for name in names:
        figures = [each.get(name, 0.0) for each in per_round]
        idle = max((abs(each.get(name, 0.0)) for each in idle_per_start), default=0.0)
        if name in TIMING_CALLS or moved(figures, resolution(idle, extra_requests, window_s)):
            marked.append(name)
    return marked


def _mean(values: Sequence[Mapping[str, float]]) -> dict[str, float]:
    names = dict.fromkeys(name for each in values for name in each)
    return {name: sum(each.get(name, 0.0) for each in values) / len(values) for name in names}


def over_starts(
    starts: Sequence[CountedSyscalls], extra_requests: int, window_s: float
) -> CallsOverStarts:
    """The starts' figures together (see the module's text); ``extra_requests``: the requests
    between the two window sizes; ``window_s``: the shortest a window lasted. A call moved
    when the figures of the starts' rounds (a start's own where it kept none) lie apart."""
    if not starts:
        raise ValueError("no start counted")
    roles = list(dict.fromkeys(role for start in starts for role in start.per_request))

    def of(role: str, kind: str) -> list[dict[str, float]]:
        return [getattr(start, kind).get(role, {}) for start in starts]

    def rounds(role: str) -> list[dict[str, float]]:
        return [
            each.get(role, {})
            for start in starts
            for each in (start.per_round or [start.per_request])
        ]

    def timing(role: str) -> dict[str, list[float]]:
        """Its marked calls, each with its least and most per-start figure."""
        marked = marked_calls(rounds(role), of(role, "idle_per_second"), extra_requests, window_s)
        figures = of(role, "per_request")
        ranges = {name: [each.get(name, 0.0) for each in figures] for name in marked}
        return {name: [min(values), max(values)] for name, values in ranges.items()}

    return CallsOverStarts(
        per_request={role: _mean(of(role, "per_request")) for role in roles},
        timing={role: timing(role) for role in roles},
        uncertainty={
            role: max(start.uncertainty.get(role, 0.0) for start in starts) for role in roles
        },
        idle_per_second={role: _mean(of(role, "idle_per_second")) for role in roles},
        per_start=[start.per_request for start in starts],
        rounds_per_start=[start.per_round for start in starts],
    )
