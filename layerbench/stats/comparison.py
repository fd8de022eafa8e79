"""B compared with A: the ratio of B's req/s to A's, its 95 % interval, and one verdict
(:mod:`layerbench.stats.verdict`: faster/slower by X %, the same within ±T %, inconclusive).

How the interval is made depends on how the two were measured:

- **side by side** (:func:`compare_paired`): two things of one run with interleaved passes
  (a ladder's rungs, a matrix's columns, ``--apps``, ``smoke --against``); the ratio and its
  interval come from the per-pass ratios (:mod:`layerbench.stats.paired`), so that the
  machine's drift between passes cancels, and an inconclusive verdict says how many more
  passes would likely decide it;
- **apart** (:func:`compare_rates`): two runs, or a run and a stored baseline, that cannot be
  paired; the ratio is of the medians, its interval a bootstrap of each side's trials
  resampled on their own, widened by ``drift`` (:mod:`layerbench.stats.apart`) when the
  caller knows how far the machine moved.

A thing measured once on either side has no interval and no verdict but *inconclusive*."""

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from layerbench.stats.median import median
from layerbench.stats.paired import CONFIDENCE, paired_ratio, pairs_of, passes_to_decide
from layerbench.stats.spread import bootstrap
from layerbench.stats.verdict import SAME_WITHIN, Outcome, Verdict, decide


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
    # B over A: of the pairs (their geometric mean) when paired, else of the medians.
    ratio: float
    ci_low: float | None
    ci_high: float | None
    # The pairs when paired, else the fewer of the two sides' trials.
    trials: int
    judged: Verdict
    paired: bool = False

    @property
    def decided(self) -> bool:
        """The verdict is faster, slower or the same (not inconclusive)."""
        return self.judged.decided

    @property
    def significant(self) -> bool:
        """The verdict is a direction (faster or slower)."""
        return self.judged.outcome in (Outcome.FASTER, Outcome.SLOWER)

    @property
    def verdict(self) -> str:
        return self.judged.text()

    def slower_beyond(self, percent: float) -> bool:
        """Decided slower, and its ratio below 1 - ``percent`` %."""
        return self.judged.outcome is Outcome.SLOWER and self.ratio < 1 - percent / 100


def compare_rungs(
    a: Sequence[RungRates], b: Sequence[RungRates], threshold: float = SAME_WITHIN
) -> list[RungComparison]:
    """Every rung measured in both runs, in A's order (one with a trial of 0 req/s in A has no
    ratio); two runs are apart: unpaired."""
    in_b = {rung.rung: rung for rung in b if rung.rates}
    return [
        compare_rates(rung.rung, list(rung.rates), list(in_b[rung.rung].rates), threshold)
        for rung in a
        if rung.rates and rung.rung in in_b and min(rung.rates) > 0
    ]


def compare_rates(
    rung: str,
    a: list[float],
    b: list[float],
    threshold: float = SAME_WITHIN,
    *,
    drift: float = 0.0,
    min_trials: int = 2,
    reason: str = "",
) -> RungComparison:
    """B's trials against A's measured apart: the ratio of the medians, the bootstrap interval
    widened by ``drift`` (a fraction: its bounds divided and multiplied by 1 + drift); fewer
    than ``min_trials`` on either side is inconclusive, and so is anything ``reason`` names."""
    median_a, median_b = median(a), median(b)
    ratio = median_b / median_a
    trials = min(len(a), len(b))
    low: float | None = None
    high: float | None = None
    if trials >= 2:
        low, high = bootstrap(lambda resample: median(resample(b)) / median(resample(a)))
        low, high = low / (1 + drift), high * (1 + drift)
    if trials < min_trials and not reason:
        reason = f"{trials} {'trial' if trials == 1 else 'trials'}, fewer than {min_trials}"
    judged = decide(ratio, low, high, threshold, reason=reason)
    return RungComparison(rung, median_a, median_b, ratio, low, high, trials, judged)


def compare_paired(
    rung: str,
    a: Sequence[float],
    b: Sequence[float],
    threshold: float = SAME_WITHIN,
    *,
    min_passes: int = 2,
    confidence: float = CONFIDENCE,
) -> RungComparison | None:
    """B against A measured side by side: ``a[i]`` and ``b[i]`` in pass i. None when no pass
    measured both. Fewer than ``min_passes`` pairs is inconclusive."""
    pairs = pairs_of(a, b)
    if not pairs:
        return None
    estimate = paired_ratio(a, b, confidence)
    more = passes_to_decide(estimate, threshold)
    reason = ""
    if estimate.passes < min_passes:
        noun = "pass" if estimate.passes == 1 else "passes"
        reason = f"{estimate.passes} {noun}, fewer than {min_passes}"
        if more is not None:
            more = max(more, min_passes - estimate.passes)
    judged = decide(
        estimate.ratio,
        estimate.ci_low,
        estimate.ci_high,
        threshold,
        reason=reason,
        more_passes=more,
    )
    return RungComparison(
        rung,
        median([x for x, _ in pairs]),
        median([y for _, y in pairs]),
        estimate.ratio,
        estimate.ci_low,
        estimate.ci_high,
        estimate.passes,
        judged,
        paired=True,
    )
