"""Two runs compared rung by rung: the ratio of their median req/s (B over A), a bootstrap 95 %
interval of that ratio (each run's trials resampled on their own), and whether the difference
is significant: the interval leaves out 1. A rung measured once in either run has no interval
and is never called significant; its verdict says why ("not significant (1 trial)")."""

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from layerbench.stats.median import median
from layerbench.stats.spread import bootstrap


class RungRates(Protocol):
    """A rung of a run: its name and the req/s of each trial (none when not measured)."""

    @property
    def rung(self) -> str: ...

    @property
    def rates(self) -> tuple[float, ...]: ...


@dataclass(frozen=True)
class RungComparison:
    rung: str
    median_a: float
    median_b: float
    ratio: float
    ci_low: float | None
    ci_high: float | None
    # The fewer of the two runs' trials of the rung.
    trials: int

    @property
    def significant(self) -> bool:
        return (
            self.ci_low is not None
            and self.ci_high is not None
            and (self.ci_high < 1.0 or self.ci_low > 1.0)
        )

    @property
    def verdict(self) -> str:
        if self.significant:
            return "faster" if self.ratio > 1 else "slower"
        if self.ci_low is None:
            return f"not significant ({self.trials} trial)"
        return "not significant"

    def slower_beyond(self, percent: float) -> bool:
        """Significantly slower, and its ratio below 1 - ``percent`` %."""
        return self.significant and self.ratio < 1 - percent / 100


def compare_rungs(a: Sequence[RungRates], b: Sequence[RungRates]) -> list[RungComparison]:
    """Every rung measured in both runs, in A's order (one with a trial of 0 req/s in A has no
    ratio)."""
    in_b = {rung.rung: rung for rung in b if rung.rates}
    return [
        compare_rates(rung.rung, list(rung.rates), list(in_b[rung.rung].rates))
        for rung in a
        if rung.rates and rung.rung in in_b and min(rung.rates) > 0
    ]


def compare_rates(rung: str, a: list[float], b: list[float]) -> RungComparison:
    median_a, median_b = median(a), median(b)
    ratio = median_b / median_a
    trials = min(len(a), len(b))
    if trials < 2:
        return RungComparison(rung, median_a, median_b, ratio, None, None, trials)
    low, high = bootstrap(lambda resample: median(resample(b)) / median(resample(a)))
    return RungComparison(rung, median_a, median_b, ratio, low, high, trials)
