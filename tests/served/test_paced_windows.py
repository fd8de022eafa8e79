"""Windows paced to one duration (layerbench.served.paced_windows), on a clock of its own: a
window whose requests are served in time lasts the duration; a late one lasts longer, the rest
of its round as long as it did, the next rounds the margin times longer; the duration follows
from the pace of the requests timed one after the other."""

import pytest

from layerbench.served.paced_windows import PACE_REQUESTS, Pacer
from tests.fake_clock import FakeClock


class Load:
    """Serves each request in ``each_s`` of the clock, paced or not: a window is late when its
    requests take longer than its duration."""

    def __init__(self, clock: FakeClock, each_s: float) -> None:
        self.clock = clock
        self.each_s = each_s
        self.rates: list[float | None] = []

    def send(self, requests: int, label: str, rate: float | None = None) -> None:
        self.rates.append(rate)
        spread = requests / rate if rate is not None else 0.0
        self.clock.now += max(spread, requests * self.each_s)


def test_the_duration_is_the_margin_times_the_long_windows_pace() -> None:
    clock = FakeClock()
    load = Load(clock, each_s=0.01)
    pacer = Pacer.measured(
        load, 600, "pace", margin=1.5, least_s=4.0, clock=clock, sleep=clock.sleep
    )
    assert pacer.seconds == 1.5 * 600 * 0.01
    assert load.rates == [None]  # the pace: requests one after the other
    slow = Pacer.measured(Load(FakeClock(), 0.001), 600, "pace", least_s=4.0)
    assert slow.seconds == 4.0  # at least least_s


def test_a_window_served_in_time_lasts_the_duration() -> None:
    clock = FakeClock()
    load = Load(clock, each_s=0.01)
    pacer = Pacer(9.0, clock=clock, sleep=clock.sleep)
    assert pacer.window(load, 200, "short") == 9.0
    assert pacer.window(load, 600, "long") == 9.0
    assert load.rates == [200 / 9.0, 600 / 9.0]


def test_a_late_window_lengthens_the_rest_of_its_round_and_the_next_rounds() -> None:
    clock = FakeClock()
    load = Load(clock, each_s=0.02)  # 600 requests take 12 s
    pacer = Pacer(9.0, margin=1.5, clock=clock, sleep=clock.sleep)
    assert pacer.window(load, 600, "long") == 12.0
    assert pacer.window(load, 200, "short") == 12.0  # its round's windows alike
    pacer.next_round()
    assert pacer.seconds == 1.5 * 12.0
    assert pacer.window(load, 600, "long") == pacer.window(load, 200, "short") == 18.0


def test_the_pace_is_timed_over_its_requests() -> None:
    clock = FakeClock()
    pacer = Pacer.measured(
        Load(clock, each_s=0.5), 6, "pace", margin=1.0, least_s=2.0, clock=clock, sleep=clock.sleep
    )
    assert pacer.seconds == pytest.approx(6 * (PACE_REQUESTS * 0.5) / PACE_REQUESTS)
