"""Rounds of the two windows, and what a request costs steadily told apart from what comes in
bursts. A server may do a large piece of work once every so many requests (Python embedded in
Apache's children rebuilds its table of interned strings every ~1,100 requests, 3.2 million
instructions: mod_wsgi interns the environ's keys and frees them again, request after request);
a window holds such a burst or not depending on where it falls, which moves one difference of two
windows by the burst over the requests between them.

Counted in rounds (a short window and a long one, in turn first, an uncounted spacer between
rounds so that a periodic burst does not fall in the same window every round), a window whose
instructions per request are more than BURST over the least of any window holds a burst; the
others are quiet. The steady cost is the
difference of the two sizes' quiet windows' means, once each size has two quiet windows; what
the burst windows counted beyond their size's quiet mean is shown beside it per request,
averaged over every request of every window counted. The quiet windows of a size may still
differ by less than BURST: where a server's processes or threads take turns by timing (two
gunicorn workers' windows of 200 requests differed by up to 0.8 %), and their mean is its
cost.

Every window lasts the same time (:mod:`layerbench.served.paced_windows`), and a window with no
request, as long, gives what each role does per second while idle: windows are compared with
that work taken off (a short window holds as much of it as a long one, three times as much per
request), and the per-request figure has its uncertainty beside it
(:mod:`layerbench.served.time_driven`)."""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from layerbench.served.time_driven import rates, timed_per_request, uncertainty

# A window that counts more than its size's least by this share holds a burst: more than timing
# made windows of one server differ (0.8 % for gunicorn's two workers), less than one rebuild of
# mod_wsgi's interned strings adds to a window of 600 requests (2 %).
BURST = 0.01
INSTRUCTIONS = "Ir"


@dataclass(frozen=True)
class CountedWindow:
    requests: int
    # Per role, callgrind's events over the window.
    by_role: Mapping[str, Mapping[str, float]]
    # How long it lasted, from its counts' zeroing to their dump.
    seconds: float = 0.0

    @property
    def instructions(self) -> float:
        return sum(events.get(INSTRUCTIONS, 0.0) for events in self.by_role.values())

    def role_instructions(self, role: str) -> float:
        return self.by_role.get(role, {}).get(INSTRUCTIONS, 0.0)


@dataclass(frozen=True)
class SteadyCost:
    # Per role, callgrind's events per request without the bursts.
    per_request: dict[str, dict[str, float]]
    # Per role, the instructions the bursts added, per request of every window counted.
    bursts_per_request: dict[str, float]
    windows: int
    burst_windows: int
    # Per role, the uncertainty of its instructions per request, and its instructions per
    # second while idle (none without an idle window).
    uncertainty: dict[str, float] | None = None
    idle_per_second: dict[str, float] | None = None
    # Each size's quiet windows' mean duration, in seconds.
    seconds: dict[int, float] | None = None


def least(windows: Sequence[CountedWindow], requests: int) -> CountedWindow:
    """The window of ``requests`` requests that counted the fewest instructions."""
    return min((each for each in windows if each.requests == requests), key=_instructions)


def _instructions(window: CountedWindow) -> float:
    return window.instructions


def quiet(
    windows: Sequence[CountedWindow], requests: int, per_second: float = 0.0
) -> list[CountedWindow]:
    """The windows of ``requests`` requests without a burst: whose instructions per request,
    what the processes do per second while idle (``per_second``) taken off, are within BURST
    of the least of any window, of either size (what a window's opening and closing add is a
    few requests' worth, far under BURST of 200). Compared across sizes, a burst that falls in
    every window of one size (its period a multiple of a round's requests) is still one."""

    def each_request(window: CountedWindow) -> float:
        return (window.instructions - per_second * window.seconds) / window.requests

    lowest = min(each_request(each) for each in windows)
    return [
        each
        for each in windows
        if each.requests == requests and each_request(each) <= lowest + abs(lowest) * BURST
    ]


def confirmed(
    windows: Sequence[CountedWindow], sizes: Sequence[int], idle: CountedWindow | None = None
) -> bool:
    """Whether each size has two quiet windows."""
    per_second = _idle_rate(idle)
    return all(len(quiet(windows, size, per_second)) >= 2 for size in sizes)


def _timeless(window: CountedWindow, role: str, per_second: Mapping[str, float]) -> float:
    """What ``role`` counted in ``window`` beyond its idle rate over the window's duration: the
    spread of these between windows of one size is not the duration's, which rounds may
    lengthen (a window whose requests came late)."""
    rate = per_second.get(INSTRUCTIONS, 0.0)
    return window.role_instructions(role) - rate * window.seconds


def _idle_rate(idle: CountedWindow | None) -> float:
    """The instructions per second of every role, counted in ``idle`` (none: 0)."""
    return idle.instructions / idle.seconds if idle is not None and idle.seconds > 0 else 0.0


def mean_by_role(windows: Sequence[CountedWindow]) -> dict[str, dict[str, float]]:
    """Per role, each event's mean over ``windows``."""
    sums: dict[str, dict[str, float]] = {}
    for window in windows:
        for role, events in window.by_role.items():
            role_sums = sums.setdefault(role, {})
            for event, value in events.items():
                role_sums[event] = role_sums.get(event, 0.0) + value
    return {
        role: {event: value / len(windows) for event, value in events.items()}
        for role, events in sums.items()
    }


def steady_cost(
    windows: Sequence[CountedWindow], short: int, long: int, idle: CountedWindow | None = None
) -> SteadyCost:
    """The steady cost per request (the difference of each size's quiet windows' means, what
    each role does per second while idle, counted in ``idle``, times the difference of their
    mean durations taken off), its uncertainty, and the bursts: what the other windows counted
    beyond their size's quiet mean."""
    # A size without a quiet window after the last round (a burst in each): its least.
    total_rate = _idle_rate(idle)
    calm = {
        size: quiet(windows, size, total_rate) or [least(windows, size)] for size in (short, long)
    }
    means = {size: mean_by_role(calm[size]) for size in (short, long)}
    seconds = {size: sum(w.seconds for w in calm[size]) / len(calm[size]) for size in calm}
    roles = list(dict.fromkeys(role for each in windows for role in each.by_role))
    per_second = {
        role: rates(idle.by_role.get(role, {}), idle.seconds) if idle is not None else {}
        for role in roles
    }
    bursts = dict.fromkeys(roles, 0.0)
    burst_windows = 0
    for window in windows:
        if any(window is each for each in calm[window.requests]):
            continue
        burst_windows += 1
        base = means[window.requests]
        for role in roles:
            extra = window.by_role.get(role, {}).get(INSTRUCTIONS, 0.0)
            bursts[role] += extra - base.get(role, {}).get(INSTRUCTIONS, 0.0)
    requests = sum(window.requests for window in windows)
    steady = {
        role: timed_per_request(
            means[short].get(role, {}),
            seconds[short],
            short,
            means[long].get(role, {}),
            seconds[long],
            long,
            per_second[role],
        )
        for role in roles
    }
    within = (
        None
        if idle is None
        else {
            role: uncertainty(
                per_second[role].get(INSTRUCTIONS, 0.0),
                idle.seconds,
                [_timeless(each, role, per_second[role]) for each in calm[short]],
                [_timeless(each, role, per_second[role]) for each in calm[long]],
                seconds[long] - seconds[short],
                long - short,
            )
            for role in roles
        }
    )
    return SteadyCost(
        per_request=steady,
        bursts_per_request={role: value / requests for role, value in bursts.items()},
        windows=len(windows),
        burst_windows=burst_windows,
        uncertainty=within,
        idle_per_second=(
            {role: per_second[role].get(INSTRUCTIONS, 0.0) for role in roles}
            if idle is not None
            else None
        ),
        seconds=seconds,
    )
