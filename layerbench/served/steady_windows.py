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
cost."""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from layerbench.served.per_request import per_request

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

    @property
    def instructions(self) -> float:
        return sum(events.get(INSTRUCTIONS, 0.0) for events in self.by_role.values())


@dataclass(frozen=True)
class SteadyCost:
    # Per role, callgrind's events per request without the bursts.
    per_request: dict[str, dict[str, float]]
    # Per role, the instructions the bursts added, per request of every window counted.
    bursts_per_request: dict[str, float]
    windows: int
    burst_windows: int


def least(windows: Sequence[CountedWindow], requests: int) -> CountedWindow:
    """The window of ``requests`` requests that counted the fewest instructions."""
    return min((each for each in windows if each.requests == requests), key=_instructions)


def _instructions(window: CountedWindow) -> float:
    return window.instructions


def quiet(windows: Sequence[CountedWindow], requests: int) -> list[CountedWindow]:
    """The windows of ``requests`` requests without a burst: whose instructions per request are
    within BURST of the least of any window, of either size (what a window's opening and
    closing add is a few requests' worth, far under BURST of 200). Compared across sizes, a
    burst that falls in every window of one size (its period a multiple of a round's
    requests) is still one."""
    lowest = min(each.instructions / each.requests for each in windows)
    return [
        each
        for each in windows
        if each.requests == requests and each.instructions / each.requests <= lowest * (1 + BURST)
    ]


def confirmed(windows: Sequence[CountedWindow], sizes: Sequence[int]) -> bool:
    """Whether each size has two quiet windows."""
    return all(len(quiet(windows, size)) >= 2 for size in sizes)


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


def steady_cost(windows: Sequence[CountedWindow], short: int, long: int) -> SteadyCost:
    """The steady cost per request (the difference of each size's quiet windows' means) and
    the bursts: what the other windows counted beyond their size's quiet mean."""
    # A size without a quiet window after the last round (a burst in each): its least.
    calm = {size: quiet(windows, size) or [least(windows, size)] for size in (short, long)}
    means = {size: mean_by_role(calm[size]) for size in (short, long)}
    roles = list(dict.fromkeys(role for each in windows for role in each.by_role))
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
        role: per_request(means[short].get(role, {}), short, means[long].get(role, {}), long)
        for role in roles
    }
    return SteadyCost(
        per_request=steady,
        bursts_per_request={role: value / requests for role, value in bursts.items()},
        windows=len(windows),
        burst_windows=burst_windows,
    )
