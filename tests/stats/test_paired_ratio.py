"""Paired ratios (layerbench.stats.paired, compare_paired) on synthetic drifting data: the
machine's speed doubles every other pass, A and B alike; the pairs see through it, two
intervals of the trials taken on their own do not."""

import math

import pytest

from layerbench.stats.comparison import compare_paired, compare_rates
from layerbench.stats.paired import paired_ratio, pairs_of, passes_to_decide
from layerbench.stats.student_t import t_cdf, t_quantile
from layerbench.stats.verdict import Outcome

# The machine at 1x, 2x, 1x, 2x…: a 2x drift between passes.
SPEED = [1.0, 2.0, 1.0, 2.0, 1.0, 2.0, 1.0, 2.0]
# B is 10 % slower than A; a little noise, the same each way.
A = [1000 * speed for speed in SPEED]
B = [900 * speed * (1.01 if i % 3 == 0 else 0.99) for i, speed in enumerate(SPEED)]


def test_the_drift_cancels_in_the_pairs() -> None:
    compared = compare_paired("b", A, B)
    assert compared is not None and compared.paired
    assert compared.ratio == pytest.approx(0.9, abs=0.005)
    assert compared.ci_low is not None and compared.ci_high is not None
    assert 0.88 < compared.ci_low < 0.9 < compared.ci_high < 0.92
    assert compared.judged.outcome is Outcome.SLOWER
    assert compared.verdict.startswith("slower by 10 %")


def test_but_not_in_two_unpaired_intervals() -> None:
    compared = compare_rates("b", A, B)
    assert compared.ci_low is not None and compared.ci_high is not None
    assert compared.ci_low < 0.6 and compared.ci_high > 1.5
    assert compared.judged.outcome is Outcome.INCONCLUSIVE


def test_the_ratio_is_the_geometric_mean_of_the_per_pass_ratios() -> None:
    estimate = paired_ratio([100, 200], [200, 200])
    assert estimate.ratio == pytest.approx(math.sqrt(2 * 1))
    assert estimate.passes == 2


def test_the_interval_is_students_t_on_the_log_ratios() -> None:
    # log-ratios 0.1, 0.2, 0.3: mean 0.2, sd 0.1, t(2) = 4.3027.
    a = [1.0, 1.0, 1.0]
    b = [math.exp(0.1), math.exp(0.2), math.exp(0.3)]
    estimate = paired_ratio(a, b)
    half = 4.302652729749752 * 0.1 / math.sqrt(3)
    assert estimate.ci_low == pytest.approx(math.exp(0.2 - half))
    assert estimate.ci_high == pytest.approx(math.exp(0.2 + half))


def test_a_pass_where_either_measured_nothing_has_no_pair() -> None:
    assert pairs_of([100, 0, 300, 400], [110, 120, 0]) == [(100, 110)]
    assert paired_ratio([100, 0], [110, 120]).ci_low is None
    assert compare_paired("x", [0.0], [1.0]) is None


def test_one_pair_is_inconclusive() -> None:
    compared = compare_paired("x", [100], [50])
    assert compared is not None
    assert compared.judged.outcome is Outcome.INCONCLUSIVE
    assert "1 pass, fewer than 2" in compared.verdict


def test_fewer_passes_than_asked_is_inconclusive_whatever_the_interval() -> None:
    compared = compare_paired("x", A[:4], B[:4], min_passes=5)
    assert compared is not None
    assert compared.judged.outcome is Outcome.INCONCLUSIVE
    assert "4 passes, fewer than 5" in compared.verdict
    assert compared.judged.more_passes == 1


def test_how_many_more_passes_would_decide() -> None:
    # Per-pass log-ratios alternating ±0.1 around 0.05: undecided with 4 passes.
    logs = [0.15, -0.05, 0.15, -0.05]
    estimate = paired_ratio([1.0] * 4, [math.exp(value) for value in logs])
    more = passes_to_decide(estimate, 0.02)
    assert more is not None and more > 0
    # With that many more passes of the same spread, the interval leaves out 1.
    n = 4 + more
    half = t_quantile(0.975, n - 1) * estimate.log_sd / math.sqrt(n)
    assert abs(estimate.log_mean) > half
    compared = compare_paired("x", [1.0] * 4, [math.exp(value) for value in logs], 0.02)
    assert compared is not None
    assert f"about {more} more passes would likely decide it" in compared.verdict


def test_decided_needs_no_more_passes() -> None:
    assert passes_to_decide(paired_ratio(A, B), 0.05) == 0


def test_students_t_quantiles() -> None:
    assert t_quantile(0.975, 1) == pytest.approx(12.7062, abs=1e-4)
    assert t_quantile(0.975, 4) == pytest.approx(2.7764, abs=1e-4)
    assert t_quantile(0.975, 30) == pytest.approx(2.0423, abs=1e-4)
    assert t_quantile(0.025, 4) == pytest.approx(-2.7764, abs=1e-4)
    assert t_cdf(0.0, 7) == pytest.approx(0.5)
