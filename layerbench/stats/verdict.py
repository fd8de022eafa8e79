"""The one verdict of a comparison of B with A (B's req/s over A's, a ratio and its interval):

- *faster* / *slower by X % [a, b]*: the interval leaves out 1 and does not lie within the
  equivalence band;
- *the same within ±T %*: the whole interval lies within [1 - T, 1 + T], an equivalence test
  (two one-sided tests at the interval's level) against a threshold the caller states; it
  wins over *faster*/*slower*: a difference too small to matter, however sure, is "the same";
- *inconclusive*: the interval spans both 1 and a side beyond ±T, or the data cannot support
  a verdict at all (too few passes, runs measured apart whose drift is larger than the
  difference: ``reason`` says which), with how many more passes would likely decide it when
  that can be told.

Every table that compares two things renders this type (:meth:`Verdict.text`,
:attr:`Verdict.word`), so a comparison reads the same everywhere.
"""

from dataclasses import dataclass
from enum import Enum

# The equivalence threshold of a comparison that states none: within ±5 % is "the same".
SAME_WITHIN = 0.05


class Outcome(Enum):
    FASTER = "faster"
    SLOWER = "slower"
    SAME = "the same"
    INCONCLUSIVE = "inconclusive"


@dataclass(frozen=True)
class Verdict:
    outcome: Outcome
    # B over A, and its interval (None when there is none).
    ratio: float
    ci_low: float | None
    ci_high: float | None
    # The equivalence threshold, a fraction (0.05: ±5 %).
    threshold: float
    # Why it is inconclusive whatever the interval says (empty when the interval decided).
    reason: str = ""
    # More passes that would likely decide it (None: cannot be told, or not asked).
    more_passes: int | None = None

    @property
    def decided(self) -> bool:
        return self.outcome is not Outcome.INCONCLUSIVE

    @property
    def change(self) -> float:
        """B relative to A, a signed fraction: -0.19 is 19 % slower."""
        return self.ratio - 1

    @property
    def word(self) -> str:
        return self.outcome.value

    def interval_text(self) -> str:
        if self.ci_low is None or self.ci_high is None:
            return "no interval"
        return f"[{percent(self.ci_low - 1)}, {percent(self.ci_high - 1)}]"

    def text(self) -> str:
        """The verdict as a table shows it: "slower by 19 % [-22 %, -16 %]"."""
        interval = self.interval_text()
        if self.outcome in (Outcome.FASTER, Outcome.SLOWER):
            return f"{self.word} by {percent(abs(self.change), sign=False)} {interval}"
        if self.outcome is Outcome.SAME:
            return f"the same within ±{percent(self.threshold, sign=False)} {interval}"
        if self.reason:
            said = f"inconclusive: {self.reason} ({percent(self.change)} {interval})"
        else:
            said = (
                f"inconclusive: the interval {interval} spans both 1 and beyond "
                f"±{percent(self.threshold, sign=False)}"
            )
        return said + self._what_would_decide()

    def _what_would_decide(self) -> str:
        if self.more_passes is None or self.more_passes == 0:
            return ""
        passes = "pass" if self.more_passes == 1 else "passes"
        return f"; about {self.more_passes} more {passes} would likely decide it"


def decide(
    ratio: float,
    ci_low: float | None,
    ci_high: float | None,
    threshold: float = SAME_WITHIN,
    *,
    reason: str = "",
    more_passes: int | None = None,
) -> Verdict:
    """The verdict on B/A = ``ratio`` with its interval; ``reason`` makes it inconclusive
    whatever the interval (the caller says why the data cannot support a verdict)."""
    if not 0 <= threshold < 1:
        raise ValueError(f"a threshold is a fraction from 0 to 1, not {threshold}")
    if ci_low is None or ci_high is None:
        reason = reason or "no interval"
    if reason or ci_low is None or ci_high is None:
        return Verdict(Outcome.INCONCLUSIVE, ratio, ci_low, ci_high, threshold, reason, more_passes)
    if 1 - threshold <= ci_low and ci_high <= 1 + threshold:
        outcome = Outcome.SAME
    elif ci_low > 1:
        outcome = Outcome.FASTER
    elif ci_high < 1:
        outcome = Outcome.SLOWER
    else:
        return Verdict(Outcome.INCONCLUSIVE, ratio, ci_low, ci_high, threshold, "", more_passes)
    return Verdict(outcome, ratio, ci_low, ci_high, threshold)


def percent(fraction: float, *, sign: bool = True) -> str:
    """A fraction as a percentage, "+12 %", one decimal below 10 % ("-2.5 %", "5 %")."""
    digits = 1 if abs(fraction) < 0.0995 else 0
    text = format(100 * fraction, ("+" if sign else "") + f".{digits}f")
    if text.endswith(".0"):
        text = text[:-2]
    return f"{text} %"
