"""Two runs made apart compared: they cannot be paired, so the machine's drift between them is
in their ratio, and no interval of their trials can see it. The interval is widened by the
drift the runs show, and a verdict is refused where the difference is within it.

The drift is the largest of:

- the spread of the compared thing's own trials within each run (max/min - 1): the machine
  moved that much from one pass to the next, so it can have moved as much between the runs;
- the CPU speed probe (:mod:`layerbench.lab.cpu_speed`) when both runs have it: how far its
  median moved between the runs, compounded with its spread within them (the probe's own
  reading is that uncertain);
- ``MIN_DRIFT`` (10 %): runs whose few trials agree within each can still differ between
  them (issue 35: two runs of one configuration a minute apart, 1.3 % apart on a quiet VM and
  33 % on a loaded one), so that two runs of three agreeing trials do not call a 5 % change.

The interval's bounds are divided and multiplied by 1 + drift. What would decide instead is to
measure the two side by side in one run (:func:`layerbench.stats.comparison.compare_paired`).
"""

from collections.abc import Sequence
from dataclasses import dataclass

from layerbench.stats.comparison import RungComparison, compare_rates
from layerbench.stats.median import median
from layerbench.stats.verdict import SAME_WITHIN, Outcome, percent

MIN_DRIFT = 0.10


@dataclass(frozen=True)
class Drift:
    fraction: float
    # What it was taken from, for the verdict's words.
    source: str


def spread_of(values: Sequence[float]) -> float:
    """max/min - 1 of the positive ``values``; 0 for fewer than two."""
    positive = [value for value in values if value > 0]
    return max(positive) / min(positive) - 1 if len(positive) >= 2 else 0.0


def drift_between(
    a: Sequence[float],
    b: Sequence[float],
    speeds_a: Sequence[float] = (),
    speeds_b: Sequence[float] = (),
) -> Drift:
    """How far the machine may have moved between run A (trials ``a``, probe ``speeds_a``)
    and run B."""
    candidates = [
        (MIN_DRIFT, "the least assumed between runs"),
        (spread_of(a), "the trials within run A"),
        (spread_of(b), "the trials within run B"),
    ]
    if speeds_a and speeds_b:
        between = median(speeds_b) / median(speeds_a)
        # The probe's own reading is as uncertain as it spreads within a run: the two compound.
        within = max(spread_of(speeds_a), spread_of(speeds_b))
        candidates += [
            (
                (max(between, 1 / between)) * (1 + within) - 1,
                "the CPU speed probe between the runs and within them",
            ),
        ]
    fraction, source = max(candidates, key=lambda candidate: candidate[0])
    return Drift(fraction, source)


def compare_apart(
    rung: str,
    a: list[float],
    b: list[float],
    drift: Drift,
    threshold: float = SAME_WITHIN,
    *,
    min_trials: int = 2,
) -> RungComparison:
    """B against A of two runs made apart, the interval widened by ``drift``; when that is what
    leaves it undecided, its verdict says so. Fewer than ``min_trials`` trials on either side
    is inconclusive."""
    widened = compare_rates(rung, a, b, threshold, drift=drift.fraction, min_trials=min_trials)
    if widened.judged.outcome is not Outcome.INCONCLUSIVE or widened.judged.reason:
        return widened
    narrow = compare_rates(rung, a, b, threshold)
    if narrow.judged.outcome is Outcome.INCONCLUSIVE:
        return widened
    reason = (
        f"runs made apart: within their drift, ±{percent(drift.fraction, sign=False)} "
        f"({drift.source})"
    )
    return compare_rates(
        rung, a, b, threshold, drift=drift.fraction, min_trials=min_trials, reason=reason
    )
