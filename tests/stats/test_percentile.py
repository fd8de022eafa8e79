"""The statistics of repeated values kept in stats/ alone: the nearest-rank percentile (the
load generator's rule) and the coefficient of variation, each against values worked by hand."""

import pytest

from layerbench.stats.percentile import nearest_rank, percentile
from layerbench.stats.spread import Spread, coefficient_of_variation


def test_the_percentile_is_the_value_at_the_nearest_rank_in_any_order() -> None:
    one_to_n = [float(n) for n in range(1000, 0, -1)]  # 1000 values, given descending
    assert [percentile(one_to_n, p) for p in (0, 500, 990, 999, 1000)] == [1, 500, 990, 999, 1000]
    assert percentile([7.0], 990) == 7.0
    # ⌈990 x 9 / 1000⌉ = 9: the largest of nine, where a linear quantile would interpolate.
    assert nearest_rank(990, 9) == 9 and percentile([float(n) for n in range(1, 10)], 990) == 9
    assert percentile([], 990) == 0.0


def test_the_coefficient_of_variation_is_the_sample_deviation_over_the_mean() -> None:
    assert coefficient_of_variation([1.0, 2.0, 3.0]) == pytest.approx(0.5)  # s = 1, mean = 2
    assert coefficient_of_variation([4.0, 4.0]) == 0.0
    assert coefficient_of_variation([5.0]) is None
    assert coefficient_of_variation([-1.0, 1.0]) is None  # a mean of 0: no ratio
    assert Spread.of([1.0, 2.0, 3.0]).cv == pytest.approx(0.5)
    assert Spread.of([5.0]).cv == 0.0
