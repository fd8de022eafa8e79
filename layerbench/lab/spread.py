"""How far repeated measurements of one thing spread: their median, coefficient of variation
and a bootstrap confidence interval of the median.

The bootstrap resamples the repeats with replacement and takes the median of each resample;
the interval holds the middle 95 % of those medians. Its seed is fixed, so that the same
measurements always give the same interval. With one measurement there is no spread to speak of
(CV 0, the interval the value itself); with few, the interval is wide, as it should be.
"""

import random
import statistics
from dataclasses import dataclass

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
        median = statistics.median(values)
        if len(values) == 1:
            return cls(1, median, 0.0, median, median)
        mean = statistics.fmean(values)
        cv = statistics.stdev(values) / mean if mean else 0.0
        low, high = bootstrap_interval(values)
        return cls(len(values), median, cv, low, high)


def bootstrap_interval(values: list[float]) -> tuple[float, float]:
    chooser = random.Random(SEED)
    medians = sorted(
        statistics.median(chooser.choices(values, k=len(values))) for _ in range(RESAMPLES)
    )
    tail = (1 - CONFIDENCE) / 2
    return medians[int(tail * RESAMPLES)], medians[int((1 - tail) * RESAMPLES) - 1]
