"""Two runs compared rung by rung: the ratio of their median req/s (B over A), a bootstrap 95 %
interval of that ratio (each run's trials resampled on their own), and whether the difference
is significant: the interval leaves out 1. A rung measured once in either run has no interval
and is never called significant."""

import statistics
from dataclasses import dataclass

from layerbench.lab.spread import bootstrap
from layerbench.store.documents import RungTrials


@dataclass(frozen=True)
class RungComparison:
    rung: str
    median_a: float
    median_b: float
    ratio: float
    ci_low: float | None
    ci_high: float | None

    @property
    def significant(self) -> bool:
        return (
            self.ci_low is not None
            and self.ci_high is not None
            and (self.ci_high < 1.0 or self.ci_low > 1.0)
        )


def compare_rungs(a: tuple[RungTrials, ...], b: tuple[RungTrials, ...]) -> list[RungComparison]:
    """Every rung measured in both runs, in A's order."""
    in_b = {rung.rung: rung for rung in b if rung.rates}
    return [
        compare_rates(rung.rung, list(rung.rates), list(in_b[rung.rung].rates))
        for rung in a
        if rung.rates and rung.rung in in_b
    ]


def compare_rates(rung: str, a: list[float], b: list[float]) -> RungComparison:
    median_a, median_b = statistics.median(a), statistics.median(b)
    ratio = median_b / median_a
    if len(a) < 2 or len(b) < 2:
        return RungComparison(rung, median_a, median_b, ratio, None, None)
    low, high = bootstrap(
        lambda resample: statistics.median(resample(b)) / statistics.median(resample(a))
    )
    return RungComparison(rung, median_a, median_b, ratio, low, high)
