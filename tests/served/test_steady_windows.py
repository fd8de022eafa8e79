"""The steady cost and the bursts of rounds of windows, on the totals of a real count:
mod_wsgi-embedded's child (windows of 200 and 600 requests, string rung), whose interpreter
rebuilt its table of interned strings (3.2 million instructions) in some of the windows."""

import pytest

from layerbench.served.steady_windows import CountedWindow, confirmed, steady_cost

SHORT, LONG = 200, 600
REBUILD = 3_274_073


def window(requests: int, application: float, server: float = 5_032) -> CountedWindow:
    return CountedWindow(requests, {"server": {"Ir": server}, "application": {"Ir": application}})


QUIET_SHORT = window(SHORT, 54_933_647)
QUIET_LONG = window(LONG, 164_808_479)


def test_a_burst_in_either_window_leaves_the_steady_cost() -> None:
    burst_in_short = [window(SHORT, 54_933_647 + REBUILD), QUIET_LONG, QUIET_SHORT, QUIET_LONG]
    burst_in_long = [QUIET_SHORT, window(LONG, 164_808_479 + REBUILD), QUIET_SHORT, QUIET_LONG]
    first = steady_cost(burst_in_short, SHORT, LONG)
    second = steady_cost(burst_in_long, SHORT, LONG)
    steady = (164_808_479 - 54_933_647) / (LONG - SHORT)
    assert first.per_request["application"]["Ir"] == pytest.approx(steady)
    assert second.per_request == first.per_request
    # The burst is shown beside it, over every request of the four windows.
    assert first.burst_windows == second.burst_windows == 1
    assert first.bursts_per_request["application"] == pytest.approx(REBUILD / 1600)
    assert first.bursts_per_request["server"] == 0


def test_the_least_confirmed_only_by_a_second_window_of_its_size() -> None:
    one_round = [QUIET_SHORT, QUIET_LONG]
    assert not confirmed(one_round, (SHORT, LONG))
    with_burst = [*one_round, window(SHORT, 54_933_647 + REBUILD), window(LONG, 164_784_524)]
    assert not confirmed(with_burst, (SHORT, LONG))  # the second short window held a burst
    assert confirmed([*with_burst, window(SHORT, 54_938_466)], (SHORT, LONG))


def test_no_burst_where_windows_of_a_size_agree() -> None:
    cost = steady_cost([QUIET_SHORT, QUIET_LONG, window(SHORT, 54_938_466)], SHORT, LONG)
    assert cost.burst_windows == 0
    assert cost.bursts_per_request == {"server": 0, "application": 0}
    assert cost.windows == 3
