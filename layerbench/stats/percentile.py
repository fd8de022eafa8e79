"""Percentiles by the load generator's rule (``load/src/stats/nearest_rank.rs``): the nearest
rank ⌈p x n / 1000⌉ with p in per mille, in integers (no floating point quantile, where
99.9 / 100 is a hair above 0.999), so that a percentile layerbench computes from its own
samples (``layerbench writes``' commit latencies) and one the load generator reads from its
histograms (its own run's, or several clients' added by ``layerbench-load merge``) are the
same statistic.

Reference: Hyndman & Fan, "Sample Quantiles in Statistical Packages" (1996), definition 1, the
inverse of the empirical distribution function."""

from collections.abc import Sequence


def nearest_rank(per_mille: int, count: int) -> int:
    """The 1-based rank of the ``per_mille`` ‰ percentile among ``count`` values in ascending
    order: ⌈p x n / 1000⌉, at least 1 (the smallest value with at least p ‰ of the values at
    or below it)."""
    return max(-(-per_mille * count // 1000), 1)


def percentile(values: Sequence[float], per_mille: int) -> float:
    """The nearest-rank ``per_mille`` ‰ percentile of ``values`` (in any order); 0 for none,
    as the load generator reports a run without a request."""
    if not values:
        return 0.0
    ordered = sorted(values)
    return float(ordered[nearest_rank(per_mille, len(ordered)) - 1])
