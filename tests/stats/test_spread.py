"""Median, coefficient of variation and bootstrap interval of repeated measurements."""

import statistics

import pytest

from layerbench.stats.spread import Spread


def test_one_value_has_no_spread() -> None:
    assert Spread.of([5000.0]) == Spread(1, 5000.0, 0.0, 5000.0, 5000.0)


def test_cv_is_the_sample_deviation_over_the_mean() -> None:
    values = [1000.0, 1100.0, 900.0, 1000.0, 1000.0]
    spread = Spread.of(values)
    assert spread.median == 1000.0
    assert spread.cv == pytest.approx(statistics.stdev(values) / 1000.0)
    assert spread.ci_low <= spread.median <= spread.ci_high
    assert spread.ci_low >= 900.0 and spread.ci_high <= 1100.0


def test_the_interval_narrows_as_the_values_agree() -> None:
    wide = Spread.of([800.0, 1200.0, 950.0, 1050.0, 1000.0, 700.0, 1300.0])
    narrow = Spread.of([990.0, 1010.0, 1000.0, 1005.0, 995.0, 1000.0, 1002.0])
    assert narrow.ci_high - narrow.ci_low < (wide.ci_high - wide.ci_low) / 5
    assert narrow.cv < 0.01 < wide.cv


def test_the_interval_is_the_same_every_time() -> None:
    values = [3.0, 1.0, 4.0, 1.0, 5.0, 9.0, 2.0, 6.0]
    assert Spread.of(values) == Spread.of(list(values))


def test_no_values_is_an_error() -> None:
    with pytest.raises(ValueError):
        Spread.of([])
