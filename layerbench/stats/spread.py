"""How far repeated measurements of one thing spread: their median, coefficient of variation
and a bootstrap confidence interval of the median.

The median is :mod:`layerbench.stats.median`'s (of an even number, the mean of the middle two),
the figure every table shows. The bootstrap resamples the repeats with replacement and takes
the median of each resample;
the interval holds the middle 95 % of those medians. Its seed is fixed, so that the same
measurements always give the same interval. With one measurement there is no spread to speak of
(CV 0, the interval the value itself); with few, the interval is wide, as it should be.
"""

import random
import statistics
from collections.abc import Callable
from dataclasses import dataclass

from layerbench.stats.median import median as median_of

RESAMPLES = 2000
CONFIDENCE = 0.95
SEED = 20090101


@dataclass(frozen=True)
class Spread:
    n: int
    median: float
    # Standard deviation over mean (sample standard deviation), as a fraction.
    cv: float
    ci_low: float
    ci_high: float

    @classmethod
    def of(cls, values: list[float]) -> "Spread":
        if not values:
            raise ValueError("no values")
        median = median_of(values)
        if len(values) == 1:
            return cls(1, median, 0.0, median, median)
        low, high = bootstrap_interval(values)
        return cls(len(values), median, coefficient_of_variation(values) or 0.0, low, high)


def coefficient_of_variation(values: list[float]) -> float | None:
    """The sample standard deviation over the mean, as a fraction; None when there is none to
    speak of: fewer than two values, or a mean of 0."""
    if len(values) < 2:
        return None
    mean = statistics.fmean(values)
    return statistics.stdev(values) / mean if mean else None


def bootstrap_interval(values: list[float]) -> tuple[float, float]:
    """The interval of the median of ``values``."""
    return bootstrap(lambda resample: median_of(resample(values)))


def bootstrap(
    statistic: Callable[[Callable[[list[float]], list[float]]], float],
) -> tuple[float, float]:
    """The middle ``CONFIDENCE`` of ``statistic`` over ``RESAMPLES`` rounds; each round it is
    given a function that resamples a list with replacement (the same seed every time)."""
    chooser = random.Random(SEED)

    def resample(values: list[float]) -> list[float]:
        return chooser.choices(values, k=len(values))

    outcomes = sorted(statistic(resample) for _ in range(RESAMPLES))
    tail = (1 - CONFIDENCE) / 2
    return outcomes[int(tail * RESAMPLES)], outcomes[int((1 - tail) * RESAMPLES) - 1]
