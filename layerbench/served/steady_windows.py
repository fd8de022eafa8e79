"""Rounds of the two windows, and what a request costs steadily told apart from what comes in
bursts. A server may do a large piece of work once every so many requests (Python embedded in
Apache's children rebuilds its table of interned strings every ~1,100 requests, 3.2 million
instructions: mod_wsgi interns the environ's keys and frees them again, request after request);
a window holds such a burst or not depending on where it falls, which moves one difference of two
windows by the burst over the requests between them.

Counted in rounds (a short window, then a long one, again), the steady cost is the difference of
each size's least window, once a second window of that size has counted within AGREE of it;
what the other windows counted beyond their size's least is the bursts, shown beside it per
request, averaged over every request of every window counted."""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from layerbench.served.per_request import per_request

# Two windows of the same size that count within this share of each other count the same work:
# what a window counted beyond it is a burst.
AGREE = 0.001
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


def is_burst(window: CountedWindow, least_of_size: CountedWindow) -> bool:
    return window.instructions > least_of_size.instructions * (1 + AGREE)


def confirmed(windows: Sequence[CountedWindow], sizes: Sequence[int]) -> bool:
    """Whether each size's least window has a second window of its size counting the same."""
    for size in sizes:
        lowest = least(windows, size)
        same = [w for w in windows if w.requests == size and not is_burst(w, lowest)]
        if len(same) < 2:
            return False
    return True


def steady_cost(windows: Sequence[CountedWindow], short: int, long: int) -> SteadyCost:
    """The steady cost per request (each size's least window, their difference) and the
    bursts: what every window counted beyond its size's least, where that is more than AGREE."""
    lowest = {size: least(windows, size) for size in (short, long)}
    roles = list(dict.fromkeys(role for each in windows for role in each.by_role))
    bursts = dict.fromkeys(roles, 0.0)
    burst_windows = 0
    for window in windows:
        base = lowest[window.requests]
        if not is_burst(window, base):
            continue
        burst_windows += 1
        for role in roles:
            extra = window.by_role.get(role, {}).get(INSTRUCTIONS, 0.0)
            bursts[role] += extra - base.by_role.get(role, {}).get(INSTRUCTIONS, 0.0)
    requests = sum(window.requests for window in windows)
    steady = {
        role: per_request(
            lowest[short].by_role.get(role, {}), short, lowest[long].by_role.get(role, {}), long
        )
        for role in roles
    }
    return SteadyCost(
        per_request=steady,
        bursts_per_request={role: value / requests for role, value in bursts.items()},
        windows=len(windows),
        burst_windows=burst_windows,
    )
