"""Rounds of the two windows, and what a request costs steadily told apart from what comes in
bursts. A server may do a large piece of work once every so many requests (Python embedded in
Apache's children rebuilds its table of interned strings every ~1,100 requests, 3.2 million
instructions: mod_wsgi interns the environ's keys and frees them again, request after request);
a window holds such a burst or not depending on where it falls, which moves one difference of two
windows by the burst over the requests between them.

Counted in rounds (a short window and a long one, in turn first, an uncounted spacer between
rounds so that a periodic burst does not fall in the same window every round), bursts are told
apart role by role: a window holds a burst in a role when the role counted more than its least
per request of any window, times the window's requests, by more than BURST of the least total
per request (times the window's requests); the window is quiet in the other roles. Each role's
steady cost is the difference of the two sizes' means over the windows quiet in that role, once
each size has two in every role; what the other windows counted in the role beyond their size's
quiet mean is shown beside it per request, averaged over every request of every window counted.
The quiet windows of a size may still differ by less than BURST: where a server's processes or
threads take turns by timing (two gunicorn workers' windows of 200 requests differed by up to
0.8 %), and their mean is its cost.

A role whose windows hold a burst more often than not, that has fewer than two quiet windows of
a size after the last round, or whose uncertainty is more than BURST of the total per request,
is **unsteady**: its count moves with something other than its
requests (Passenger's core collects its Ruby processes' metrics every 5 s, some ten million
instructions under callgrind, more or less from one collection to the next), and a figure from
the windows that happened to count least would not be its cost. It is shown as such, with the
spread of its windows, and left out of the total.

Every window lasts the same time (:mod:`layerbench.served.paced_windows`), and a window with no
request, as long, gives what each role does per second while idle: windows are compared with
that work taken off (a short window holds as much of it as a long one, three times as much per
request), and the per-request figure has its uncertainty beside it
(:mod:`layerbench.served.time_driven`)."""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

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
    # Each size's windows' mean duration, in seconds.
    seconds: dict[int, float] | None = None
    # Per role whose count moved from window to window with something other than its requests,
    # why: its figure is not usable (:func:`unsteady_roles`).
    unsteady: dict[str, str] = field(default_factory=dict)


def least(windows: Sequence[CountedWindow], requests: int) -> CountedWindow:
    """The window of ``requests`` requests that counted the fewest instructions."""
    return min((each for each in windows if each.requests == requests), key=_instructions)


def _instructions(window: CountedWindow) -> float:
    return window.instructions


def _roles(windows: Sequence[CountedWindow]) -> list[str]:
    return list(dict.fromkeys(role for each in windows for role in each.by_role))


def _role_rates(idle: CountedWindow | None, roles: Sequence[str]) -> dict[str, float]:
    """Per role, its instructions per second counted in ``idle`` (none: 0)."""
    if idle is None or idle.seconds <= 0:
        return dict.fromkeys(roles, 0.0)
    return {role: idle.role_instructions(role) / idle.seconds for role in roles}


def quiet_by_role(
    windows: Sequence[CountedWindow], requests: int, per_second: Mapping[str, float]
) -> dict[str, list[CountedWindow]]:
    """Per role, the windows of ``requests`` requests without a burst in that role: whose
    instructions in the role, what it does per second while idle (``per_second``) taken off,
    exceed the role's least per request of any window (of either size) times their requests by
    no more than BURST of the least total per request times their requests. A role's burst
    marks its own windows only: one noisy role leaves the others' windows quiet. Compared
    across sizes, a burst that falls in every window of one size (its period a multiple of a
    round's requests) is still one; a role that does no work per request (a timer's) differs
    by no more than its timers' work, far under BURST of the total."""

    def each_request(window: CountedWindow, role: str) -> float:
        return _timeless(window, role, {INSTRUCTIONS: per_second.get(role, 0.0)}) / window.requests

    def total(window: CountedWindow) -> float:
        return sum(each_request(window, role) for role in window.by_role)

    allowed = abs(min(total(each) for each in windows)) * BURST
    quiet_windows: dict[str, list[CountedWindow]] = {}
    for role in _roles(windows):
        lowest = min(each_request(each, role) for each in windows)
        quiet_windows[role] = [
            each
            for each in windows
            if each.requests == requests and each_request(each, role) <= lowest + allowed
        ]
    return quiet_windows


def confirmed(
    windows: Sequence[CountedWindow], sizes: Sequence[int], idle: CountedWindow | None = None
) -> bool:
    """Whether each size has two quiet windows in every role."""
    per_second = _role_rates(idle, _roles(windows))
    return all(
        len(kept) >= 2
        for size in sizes
        for kept in quiet_by_role(windows, size, per_second).values()
    )


def _timeless(window: CountedWindow, role: str, per_second: Mapping[str, float]) -> float:
    """What ``role`` counted in ``window`` beyond its idle rate over the window's duration: the
    spread of these between windows of one size is not the duration's, which rounds may
    lengthen (a window whose requests came late)."""
    rate = per_second.get(INSTRUCTIONS, 0.0)
    return window.role_instructions(role) - rate * window.seconds


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


def unsteady_roles(
    windows: Sequence[CountedWindow],
    quiet_windows: Mapping[int, Mapping[str, Sequence[CountedWindow]]],
    per_second: Mapping[str, float],
) -> dict[str, str]:
    """Per role whose quiet windows are not its usual ones, why: a size with fewer than two
    (after the last round), or more of its windows with a burst than without. Such a role's
    count moves from window to window with something other than its requests (a timer of long
    period whose work varies), and its figure would rest on the windows that happened to count
    least."""
    causes = {}
    for role in _roles(windows):
        kept = [each for size in quiet_windows for each in quiet_windows[size][role]]
        lacking = [size for size in quiet_windows if len(quiet_windows[size][role]) < 2]
        if lacking or 2 * len(kept) < len(windows):
            causes[role] = (
                f"{len(windows) - len(kept)} of its {len(windows)} windows held a burst "
                f"({_spread_words(windows, role, per_second)})"
            )
    return causes


def imprecise_roles(
    steady: Mapping[str, Mapping[str, float]], within: Mapping[str, float]
) -> dict[str, float]:
    """Per role whose uncertainty is more than BURST of the total per request, its uncertainty:
    a figure that loose cannot tell two servers apart at the precision the windows are for."""
    total = sum(abs(events.get(INSTRUCTIONS, 0.0)) for events in steady.values())
    return {role: each for role, each in within.items() if each > BURST * total}


def _spread_words(
    windows: Sequence[CountedWindow], role: str, per_second: Mapping[str, float]
) -> str:
    """How far apart ``role``'s windows of one size were, per request, its idle work taken off."""
    rate = {INSTRUCTIONS: per_second.get(role, 0.0)}
    spread = 0.0
    for size in dict.fromkeys(each.requests for each in windows):
        counts = [_timeless(each, role, rate) for each in windows if each.requests == size]
        spread = max(spread, (max(counts) - min(counts)) / size)
    return f"its windows of one size differed by up to {spread:,.0f} per request"


def steady_cost(
    windows: Sequence[CountedWindow], short: int, long: int, idle: CountedWindow | None = None
) -> SteadyCost:
    """Per role, the steady cost per request (the difference of each size's quiet windows'
    means in that role, what the role does per second while idle, counted in ``idle``, times
    the difference of their mean durations taken off), its uncertainty, and the bursts: what
    the other windows counted in the role beyond their size's quiet mean."""
    roles = _roles(windows)
    rates_by_role = _role_rates(idle, roles)
    quiet_windows = {size: quiet_by_role(windows, size, rates_by_role) for size in (short, long)}
    # A size without a quiet window in a role after the last round (a burst in each): its
    # window that counted least in that role.
    calm = {
        role: {
            size: list(quiet_windows[size][role]) or [_least_in(windows, size, role)]
            for size in (short, long)
        }
        for role in roles
    }
    per_second = {
        role: rates(idle.by_role.get(role, {}), idle.seconds) if idle is not None else {}
        for role in roles
    }
    bursts = dict.fromkeys(roles, 0.0)
    with_burst: set[int] = set()
    for role in roles:
        base = {size: mean_by_role(calm[role][size]).get(role, {}) for size in (short, long)}
        for index, window in enumerate(windows):
            if any(window is each for each in calm[role][window.requests]):
                continue
            with_burst.add(index)
            # Both less what the role does per second while idle over their durations.
            quiet_seconds = _mean_seconds(calm[role][window.requests])
            rate = rates_by_role[role]
            bursts[role] += (window.role_instructions(role) - rate * window.seconds) - (
                base[window.requests].get(INSTRUCTIONS, 0.0) - rate * quiet_seconds
            )
    requests = sum(window.requests for window in windows)
    steady = {
        role: _role_per_request(calm[role], role, short, long, per_second[role]) for role in roles
    }
    within = (
        None
        if idle is None
        else {
            role: uncertainty(
                per_second[role].get(INSTRUCTIONS, 0.0),
                idle.seconds,
                [_timeless(each, role, per_second[role]) for each in calm[role][short]],
                [_timeless(each, role, per_second[role]) for each in calm[role][long]],
                _mean_seconds(calm[role][long]) - _mean_seconds(calm[role][short]),
                long - short,
            )
            for role in roles
        }
    )
    unsteady = unsteady_roles(windows, quiet_windows, rates_by_role)
    for role, loose in imprecise_roles(steady, within or {}).items():
        unsteady.setdefault(
            role,
            f"its uncertainty, ±{loose:,.0f} per request, is over {BURST:.0%} of the total "
            f"({_spread_words(windows, role, rates_by_role)})",
        )
    every = {size: [each for each in windows if each.requests == size] for size in (short, long)}
    return SteadyCost(
        per_request=steady,
        bursts_per_request={role: value / requests for role, value in bursts.items()},
        windows=len(windows),
        burst_windows=len(with_burst),
        uncertainty=within,
        idle_per_second=(
            {role: per_second[role].get(INSTRUCTIONS, 0.0) for role in roles}
            if idle is not None
            else None
        ),
        seconds={size: _mean_seconds(every[size]) for size in every},
        unsteady=unsteady,
    )


def _least_in(windows: Sequence[CountedWindow], requests: int, role: str) -> CountedWindow:
    """The window of ``requests`` requests that counted the fewest instructions in ``role``."""
    sized = [each for each in windows if each.requests == requests]
    return min(sized, key=lambda each: each.role_instructions(role))


def _mean_seconds(windows: Sequence[CountedWindow]) -> float:
    return sum(each.seconds for each in windows) / len(windows)


def _role_per_request(
    calm: Mapping[int, Sequence[CountedWindow]],
    role: str,
    short: int,
    long: int,
    per_second: Mapping[str, float],
) -> dict[str, float]:
    """The role's events per request from its quiet windows of each size."""
    means = {size: mean_by_role(calm[size]).get(role, {}) for size in (short, long)}
    return timed_per_request(
        means[short],
        _mean_seconds(calm[short]),
        short,
        means[long],
        _mean_seconds(calm[long]),
        long,
        per_second,
    )
