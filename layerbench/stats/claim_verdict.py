"""Whether a published claim holds here, judged on its direction *and* its size.

A claim says that one configuration is faster than another (by the size its figures give: the
ratio of its two req/s, ``claimed_ratio``), or about as fast. Ours is a ratio with its 95 %
interval, measured side by side (:mod:`layerbench.stats.paired`). The verdicts:

- *holds*: the same direction, and the claimed size inside our interval widened either way by
  the published figures' own uncertainty: ``SIZE_ALLOWANCE`` of the ratio, the run-to-run
  variation of a benchmark like ab's, since no post repeats a configuration (a claim of +20 %
  holds against [+22 %, +30 %], not +49 % against [+28 %, +36 %]); when the claimed size lies
  outside our interval itself and only the allowance takes it in, the verdict says so; for
  "about as fast", our interval within ±``SAME_WITHIN``;
- *the direction holds, the size differs*: the same direction, the claimed size outside
  (claimed +20 %, here +190 % [+182 %, +240 %]);
- *does not hold*: the other direction, decided; or, for a claim of a difference, ours the
  same within ±``SAME_WITHIN``; for "about as fast", ours wholly beyond ±``SAME_WITHIN``;
- *inconclusive*: our interval cannot tell (it spans 1 and reaches beyond ±``SAME_WITHIN``),
  or there is none.

Without a claimed size (a figure the post did not give) only the direction is judged.
"""

from dataclasses import dataclass
from enum import Enum

from layerbench.stats.verdict import percent

# The published ratio's own uncertainty: the claimed size may lie this far (a fraction of the
# ratio) outside our interval and hold, said in the verdict. Two ab runs of one configuration
# differ by a few per cent; the posts give one run of each, so no spread of their own.
SIZE_ALLOWANCE = 0.03
# Two rates within this of each other are "about as fast".
SAME_WITHIN = 0.05


class ClaimOutcome(Enum):
    HOLDS = "holds"
    SIZE_DIFFERS = "the direction holds, the size differs"
    DOES_NOT_HOLD = "does not hold"
    INCONCLUSIVE = "inconclusive"


@dataclass(frozen=True)
class ClaimVerdict:
    outcome: ClaimOutcome
    # The claim's ratio (None: not given), ours and our interval (None: there is none).
    claimed_ratio: float | None
    ratio: float
    ci_low: float | None
    ci_high: float | None
    # Why, in a few words: "faster here", "slower here", "the interval spans 1".
    why: str = ""

    @property
    def decided(self) -> bool:
        return self.outcome is not ClaimOutcome.INCONCLUSIVE

    def sizes(self) -> str:
        """The claim's size beside ours: "claimed +20 %, here +190 % [+182 %, +240 %]"."""
        here = f"here {percent(self.ratio - 1)}"
        if self.ci_low is not None and self.ci_high is not None:
            here += f" [{percent(self.ci_low - 1)}, {percent(self.ci_high - 1)}]"
        if self.claimed_ratio is None:
            return f"no size claimed, {here}"
        return f"claimed {percent(self.claimed_ratio - 1)}, {here}"

    def text(self) -> str:
        """ "claimed +20 %, here +190 % [+182 %, +240 %]: the direction holds, the size
        differs"."""
        return f"{self.sizes()}: {self.outcome.value}" + (f" ({self.why})" if self.why else "")


def judge_claim(
    claimed_ratio: float | None,
    same: bool,
    ratio: float,
    ci_low: float | None,
    ci_high: float | None,
    *,
    size_allowance: float = SIZE_ALLOWANCE,
    same_within: float = SAME_WITHIN,
) -> ClaimVerdict:
    """The verdict on a claim that B is faster than A by ``claimed_ratio`` (B/A; or about as
    fast, ``same``) against our B/A = ``ratio`` in [``ci_low``, ``ci_high``]."""
    if ci_low is None or ci_high is None:
        outcome, why = ClaimOutcome.INCONCLUSIVE, "no interval"
    elif same:
        outcome, why = _about_as_fast(ci_low, ci_high, same_within)
    else:
        outcome, why = _faster(claimed_ratio, ci_low, ci_high, size_allowance, same_within)
    return ClaimVerdict(outcome, claimed_ratio, ratio, ci_low, ci_high, why)


def _about_as_fast(low: float, high: float, same_within: float) -> tuple[ClaimOutcome, str]:
    band = percent(same_within, sign=False)
    if 1 - same_within <= low and high <= 1 + same_within:
        return ClaimOutcome.HOLDS, f"within ±{band}"
    if high < 1 - same_within or low > 1 + same_within:
        return (
            ClaimOutcome.DOES_NOT_HOLD,
            f"{'faster' if low > 1 else 'slower'} beyond ±{band} here",
        )
    return ClaimOutcome.INCONCLUSIVE, "the interval spans both"


def _faster(
    claimed: float | None, low: float, high: float, size_allowance: float, same_within: float
) -> tuple[ClaimOutcome, str]:
    if high < 1:
        return ClaimOutcome.DOES_NOT_HOLD, "slower here"
    if 1 - same_within <= low and high <= 1 + same_within:
        return (
            ClaimOutcome.DOES_NOT_HOLD,
            f"the same within ±{percent(same_within, sign=False)} here",
        )
    if low <= 1:
        return ClaimOutcome.INCONCLUSIVE, "the interval spans 1"
    if claimed is None:
        return ClaimOutcome.HOLDS, "faster, no size claimed"
    return _size(claimed, low, high, size_allowance)


def _size(claimed: float, low: float, high: float, allowance: float) -> tuple[ClaimOutcome, str]:
    """A claim whose direction holds, judged on its size: inside our interval, or outside it
    but within ``allowance`` (said), or not."""
    if low <= claimed <= high:
        return ClaimOutcome.HOLDS, ""
    if low / (1 + allowance) <= claimed <= high * (1 + allowance):
        allowed = percent(allowance, sign=False)
        return (
            ClaimOutcome.HOLDS,
            f"within the {allowed} allowed the post's figures, outside our interval",
        )
    return ClaimOutcome.SIZE_DIFFERS, ""
