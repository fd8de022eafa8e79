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


def test_confirmed_once_each_size_has_two_quiet_windows() -> None:
    one_round = [QUIET_SHORT, QUIET_LONG]
    assert not confirmed(one_round, (SHORT, LONG))
    with_burst = [*one_round, window(SHORT, 54_933_647 + REBUILD), window(LONG, 164_784_524)]
    assert not confirmed(with_burst, (SHORT, LONG))  # the second short window held a burst
    assert confirmed([*with_burst, window(SHORT, 54_938_466)], (SHORT, LONG))


def test_windows_that_differ_by_timing_are_averaged_not_bursts() -> None:
    # gunicorn's two workers (string rung): windows of 200 requests differing by 0.8 %.
    shorts = [window(SHORT, count) for count in (96_662_003, 96_291_451, 95_978_306)]
    longs = [window(LONG, count) for count in (289_387_344, 288_418_381, 288_699_580)]
    cost = steady_cost([*shorts, *longs], SHORT, LONG)
    assert cost.burst_windows == 0
    assert cost.bursts_per_request == {"server": 0, "application": 0}
    assert cost.windows == 6
    mean_short = sum(w.by_role["application"]["Ir"] for w in shorts) / 3
    mean_long = sum(w.by_role["application"]["Ir"] for w in longs) / 3
    expected = (mean_long - mean_short) / (LONG - SHORT)
    assert cost.per_request["application"]["Ir"] == pytest.approx(expected)


def test_a_burst_in_every_short_window_is_still_one() -> None:
    # Two rounds in which the rebuild fell in both short windows (its period near a round's
    # 800 requests): per request, they counted 6 % more than the long ones.
    windows = [
        window(SHORT, 58_297_062),
        window(LONG, 164_890_797),
        window(SHORT, 58_594_547),
        window(LONG, 165_046_712),
    ]
    assert not confirmed(windows, (SHORT, LONG))
    quiet_short = window(SHORT, 54_894_030)
    assert not confirmed([*windows, quiet_short], (SHORT, LONG))
    done = [*windows, quiet_short, window(SHORT, 54_911_987)]
    assert confirmed(done, (SHORT, LONG))
    cost = steady_cost(done, SHORT, LONG)
    assert cost.burst_windows == 2
    assert 274_000 < cost.per_request["application"]["Ir"] < 276_000


# Passenger under callgrind (string rung): the Ruby process's count is steady, the core's
# moves by a quarter from window to window with its metrics collection every 5 s.
RUBY_PER_REQUEST = 2_046_558
CORE = (409_000_000, 532_000_000, 455_000_000, 498_000_000, 421_000_000, 517_000_000)


def passenger_window(requests: int, core: float, ruby_noise: float = 0.0) -> CountedWindow:
    """A window of 205 s: the core's count ``core``, the Ruby process's its requests'."""
    return CountedWindow(
        requests,
        {
            "server": {"Ir": core},
            "application": {"Ir": RUBY_PER_REQUEST * requests + ruby_noise},
        },
        205.0,
    )


def test_a_role_that_moves_in_every_window_leaves_the_others_quiet() -> None:
    sizes = [SHORT, LONG, LONG, SHORT, SHORT, LONG]
    noise = [0.0, 1_900.0, -700.0, 1_200.0, -300.0, 400.0]
    windows = [
        passenger_window(size, core, each)
        for size, core, each in zip(sizes, CORE, noise, strict=True)
    ]
    cost = steady_cost(windows, SHORT, LONG, passenger_window(0, 460_000_000))
    # Every window is quiet in the application: its figure is their means' difference.
    shorts = [w.role_instructions("application") for w in windows if w.requests == SHORT]
    longs = [w.role_instructions("application") for w in windows if w.requests == LONG]
    expected = (sum(longs) / 3 - sum(shorts) / 3) / (LONG - SHORT)
    assert cost.per_request["application"]["Ir"] == pytest.approx(expected)
    assert cost.bursts_per_request["application"] == 0
    # The core is unsteady, saying how far its windows were apart; the application is not.
    assert set(cost.unsteady) == {"server"}
    assert "differed by up to 445,000 per request" in cost.unsteady["server"]
    # Its windows are not confirmed: the rounds go on (up to the last).
    assert not confirmed(windows, (SHORT, LONG), passenger_window(0, 460_000_000))


def test_a_rare_burst_in_one_role_marks_that_role_only() -> None:
    # The server steady but for one window (a log rotation, say), the application steady.
    windows = [passenger_window(size, 9_000_000.0) for size in [SHORT, LONG] * 3]
    windows[3] = passenger_window(LONG, 9_000_000.0 + 40_000_000)
    idle = passenger_window(0, 9_000_000.0)
    cost = steady_cost(windows, SHORT, LONG, idle)
    assert confirmed(windows, (SHORT, LONG), idle)
    assert cost.unsteady == {}
    assert cost.burst_windows == 1
    assert cost.per_request["server"]["Ir"] == pytest.approx(0.0)
    assert cost.bursts_per_request["server"] == pytest.approx(40_000_000 / (3 * (SHORT + LONG)))
    assert cost.bursts_per_request["application"] == 0
    assert cost.per_request["application"]["Ir"] == pytest.approx(RUBY_PER_REQUEST)


def test_a_role_without_two_quiet_windows_of_a_size_is_unsteady() -> None:
    # Two rounds only: the server's one quiet short window is not a figure.
    windows = [
        passenger_window(SHORT, 9_000_000.0),
        passenger_window(LONG, 9_000_000.0),
        passenger_window(LONG, 9_000_000.0),
        passenger_window(SHORT, 9_000_000.0 + 40_000_000),
    ]
    cost = steady_cost(windows, SHORT, LONG, passenger_window(0, 9_000_000.0))
    assert set(cost.unsteady) == {"server"}
    assert "1 of its 4 windows held a burst" in cost.unsteady["server"]


def test_a_role_whose_uncertainty_is_over_burst_of_the_total_is_unsteady() -> None:
    # A counted run of Passenger (string rung, four rounds): the core had two quiet windows of
    # each size, but its windows of 192 s moved by up to 36,000 per request with its 5 s metrics
    # collection; Apache in front and the Ruby process steady.
    def counted(
        requests: int, seconds: float, front: float, core: float, ruby: float
    ) -> CountedWindow:
        roles = {"front": {"Ir": front}, "server": {"Ir": core}, "application": {"Ir": ruby}}
        return CountedWindow(requests, roles, seconds)

    idle = counted(0, 127.9, 235_068, 286_993_107, 391_575)
    windows = [
        counted(SHORT, 127.9, 17_708_042, 309_882_337, 425_886_235),
        counted(LONG, 128.0, 52_469_743, 343_658_280, 1_229_990_564),
        counted(LONG, 192.0, 52_635_950, 499_194_698, 1_231_976_640),
        counted(SHORT, 192.0, 17_787_599, 453_601_792, 409_259_537),
        counted(SHORT, 192.0, 17_989_584, 446_450_453, 412_786_111),
        counted(LONG, 192.0, 52_618_968, 487_618_557, 1_228_028_217),
        counted(LONG, 192.0, 52_793_231, 487_981_483, 1_231_378_846),
        counted(SHORT, 192.0, 17_893_637, 450_559_054, 409_127_211),
    ]
    cost = steady_cost(windows, SHORT, LONG, idle)
    assert cost.uncertainty is not None
    total = sum(events["Ir"] for events in cost.per_request.values())
    assert cost.uncertainty["server"] > 0.01 * total
    assert set(cost.unsteady) == {"server"}
    assert cost.unsteady["server"].startswith("its uncertainty, ±")
    # The front's and the application's figures stand, within 1 % of the total.
    assert cost.uncertainty["front"] < 0.01 * total
    assert cost.uncertainty["application"] < 0.01 * total
