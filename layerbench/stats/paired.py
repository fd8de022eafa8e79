"""Two things measured side by side, pass after pass: the ratio of B to A estimated from the
pairs, so that the machine's drift between passes cancels.

A run that interleaves its passes (A B A B…, a ladder's rungs, a matrix's columns, ``--apps``,
``smoke --against``) measures A and B a few seconds apart in each pass. On a shared machine
the speed of everything can move 2 to 3 times from one pass to the next; it moves A and B
alike. The ratio B/A *within* a pass keeps what tells them apart and loses the drift; two
intervals of A's and B's trials taken on their own keep the drift in both and cannot see
through it.

The method is the paired t interval on the logarithms of the per-pass ratios: with
``l_i = ln(b_i / a_i)`` over the n passes where both were measured, the ratio is
``exp(mean(l))`` (the geometric mean of the per-pass ratios) and its interval
``exp(mean(l) ± t(n-1) · sd(l) / √n)``. The logarithm makes a ratio and its inverse symmetric
(B/A = 2 and A/B = 0.5 are equally far from 1) and a speed-up of the machine a shift that the
difference removes. Student's t (:mod:`layerbench.stats.student_t`), rather than a bootstrap
over passes, because runs have few passes: with 2 to 5 the percentile bootstrap's interval is
no wider than the ratios seen (with 2, their range: about a 50 % interval, whatever it says),
while t's quantile (12.7 for 2 passes, 2.78 for 5) says how little two or five passes show.
It is exact when the log-ratios are normal; the test that sees through the drift
(``tests/stats/test_paired_ratio.py``) holds whatever the drift is, since it never reaches the
log-ratios.
"""

import math
from collections.abc import Sequence
from dataclasses import dataclass

from layerbench.stats.student_t import t_quantile

CONFIDENCE = 0.95
# A projection of the passes needed never looks further than this.
MAX_PROJECTED_PASSES = 1000


@dataclass(frozen=True)
class PairedRatio:
    """B over A from ``passes`` pairs: the geometric mean of the per-pass ratios and its
    ``confidence`` interval (None with a single pair: no spread to judge it by)."""

    ratio: float
    ci_low: float | None
    ci_high: float | None
    passes: int
    # The mean and sample standard deviation of the per-pass log-ratios (sd 0 with one pass).
    log_mean: float
    log_sd: float
    confidence: float = CONFIDENCE


def pairs_of(a: Sequence[float], b: Sequence[float]) -> list[tuple[float, float]]:
    """A's and B's figures of the same pass (index i of each is pass i), where both measured
    something (a pass where either is 0 or missing has no ratio)."""
    return [(x, y) for x, y in zip(a, b, strict=False) if x > 0 and y > 0]


def paired_ratio(
    a: Sequence[float], b: Sequence[float], confidence: float = CONFIDENCE
) -> PairedRatio:
    """B over A, pass by pass; ``a[i]`` and ``b[i]`` were measured in the same pass. A
    ValueError when no pass measured both."""
    pairs = pairs_of(a, b)
    if not pairs:
        raise ValueError("no pass measured both")
    logs = [math.log(y / x) for x, y in pairs]
    n = len(logs)
    mean = math.fsum(logs) / n
    if n == 1:
        return PairedRatio(math.exp(mean), None, None, 1, mean, 0.0, confidence)
    sd = math.sqrt(math.fsum((value - mean) ** 2 for value in logs) / (n - 1))
    half = _half_width(sd, n, confidence)
    return PairedRatio(
        math.exp(mean), math.exp(mean - half), math.exp(mean + half), n, mean, sd, confidence
    )


def _half_width(sd: float, n: int, confidence: float) -> float:
    return t_quantile(1 - (1 - confidence) / 2, n - 1) * sd / math.sqrt(n)


def passes_to_decide(estimate: PairedRatio, threshold: float) -> int | None:
    """How many more passes would likely decide the comparison, if the per-pass log-ratios
    kept their mean and spread: the fewest that make the interval leave out 1, or lie within
    ±``threshold`` (a fraction) of it. 0 when it is decided already; None when it cannot be
    told (a single pass has no spread) or would take more than MAX_PROJECTED_PASSES."""
    if estimate.passes < 2:
        return None
    low, high = math.log(1 - threshold), math.log(1 + threshold)
    mean, sd = estimate.log_mean, estimate.log_sd

    def decides(n: int) -> bool:
        half = _half_width(sd, n, estimate.confidence)
        return abs(mean) > half or (low <= mean - half and mean + half <= high)

    # The interval narrows as n grows, so once n passes decide, more do too: the fewest that
    # decide, found by bisection (a dozen quantiles, not up to a thousand).
    fewest, most = estimate.passes, MAX_PROJECTED_PASSES
    if not decides(most):
        return None
    while fewest < most:
        middle = (fewest + most) // 2
        if decides(middle):
            most = middle
        else:
            fewest = middle + 1
    return fewest - estimate.passes
