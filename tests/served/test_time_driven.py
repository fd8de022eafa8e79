"""Work done per second, not per request, left out of the per-request figure: windows of one
duration at two paces, a timer firing a whole number of times in each (floor or ceil of its
duration over its period, by its phase), give the same per-request figure within the
uncertainty the code states; windows whose duration followed their requests would not."""

import math

import pytest

from layerbench.served.steady_windows import CountedWindow, steady_cost
from layerbench.served.time_driven import TIMER_S, shown, timed_per_request, uncertainty

SHORT, LONG = 200, 600
PER_REQUEST = 480_000.0  # a gunicorn sync worker's, string rung
FIRE = 52_000.0  # one wake of a 1 s timer (gunicorn's arbiter loop)
PERIOD = 1.0


def fires(opened: float, seconds: float) -> int:
    """How many times a timer of PERIOD, first firing at 0, fires in [opened, opened+seconds)."""
    return math.ceil((opened + seconds) / PERIOD) - math.ceil(opened / PERIOD)


def window(requests: int, opened: float, seconds: float) -> CountedWindow:
    """A server whose worker costs PER_REQUEST per request and whose arbiter fires its timer."""
    return CountedWindow(
        requests,
        {
            "server": {"Ir": FIRE * fires(opened, seconds)},
            "application": {"Ir": PER_REQUEST * requests},
        },
        seconds,
    )


def counted(seconds: float, phase: float) -> tuple[list[CountedWindow], CountedWindow]:
    """Two rounds of windows of ``seconds`` each, opened one after the other from ``phase``,
    and the idle window before them."""
    idle = window(0, phase, seconds)
    opened = phase + seconds + 0.37
    windows = []
    for size in (SHORT, LONG, LONG, SHORT):
        windows.append(window(size, opened, seconds))
        opened += seconds + 0.41
    return windows, idle


@pytest.mark.parametrize(("seconds", "phase"), [(9.3, 0.05), (18.6, 0.71), (27.9, 0.33)])
def test_a_timer_does_not_change_the_per_request_figure(seconds: float, phase: float) -> None:
    windows, idle = counted(seconds, phase)
    cost = steady_cost(windows, SHORT, LONG, idle)
    assert cost.uncertainty is not None and cost.idle_per_second is not None
    assert cost.per_request["application"]["Ir"] == pytest.approx(PER_REQUEST)
    # The arbiter's figure is what one fire more or less leaves: within its uncertainty of 0.
    arbiter = cost.per_request["server"]["Ir"]
    assert abs(arbiter) <= cost.uncertainty["server"]
    assert shown(arbiter, cost.uncertainty["server"]) == 0
    # Its idle rate is the timer's, within one fire over the idle window.
    assert cost.idle_per_second["server"] == pytest.approx(FIRE / PERIOD, abs=FIRE / seconds)
    # The bound holds one fire: a timer of PERIOD <= TIMER_S.
    assert cost.uncertainty["server"] >= FIRE / (LONG - SHORT)


def test_windows_as_long_as_their_requests_would_count_the_timer() -> None:
    # The same server, each window lasting what its requests took (30 ms each): the old way.
    pace = 0.03
    sizes = [SHORT, LONG] * 2
    windows = [window(size, 1.0 + index * 40, size * pace) for index, size in enumerate(sizes)]
    cost = steady_cost(windows, SHORT, LONG)
    arbiter = cost.per_request["server"]["Ir"]
    # About a fire per 33 requests: well out of what equal windows leave.
    assert arbiter > FIRE * pace * 0.8
    assert arbiter > 5 * FIRE / (LONG - SHORT)


def test_a_duration_that_still_differs_is_taken_off_at_the_idle_rate() -> None:
    rate = {"Ir": 48_000.0}
    short = {"Ir": 10.0 * 48_000 + 200 * 7.0}
    long = {"Ir": 10.5 * 48_000 + 600 * 7.0}
    figure = timed_per_request(short, 10.0, SHORT, long, 10.5, LONG, rate)
    assert figure == {"Ir": pytest.approx(7.0)}
    # The correction itself is in the uncertainty, and a fire of a 1 s timer.
    within = uncertainty(48_000.0, 10.0, [], [], 0.5, LONG - SHORT)
    assert within == pytest.approx((48_000 * 10 * TIMER_S / (10 - TIMER_S) + 24_000) / 400)


def test_a_figure_outside_its_uncertainty_is_shown() -> None:
    assert shown(4_975.0, 12.0) == 4_975.0
    assert shown(-11.0, 12.0) == 0.0
    assert shown(11.0, None) == 11.0


def test_windows_lengthened_between_rounds_are_no_spread() -> None:
    # A round's windows lasted 40 s, the next's 61 s (requests came late, later windows last
    # longer): the timer fired 20 more times in each, which the idle rate accounts for.
    idle = window(0, 0.5, 40.0)
    windows = [
        window(SHORT, 41.2, 40.0),
        window(LONG, 82.1, 40.0),
        window(LONG, 123.3, 61.0),
        window(SHORT, 185.0, 61.0),
    ]
    cost = steady_cost(windows, SHORT, LONG, idle)
    assert cost.uncertainty is not None
    assert cost.per_request["application"]["Ir"] == pytest.approx(PER_REQUEST)
    # One fire and what a window's count may differ from its duration's: a few fires, not the
    # 21 fires the longer round counted.
    assert cost.uncertainty["server"] < 4 * FIRE / (LONG - SHORT)
    assert abs(cost.per_request["server"]["Ir"]) <= cost.uncertainty["server"]
