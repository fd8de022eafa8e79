"""Looking again and again at a run that grows (``--until-decided``): each look at the
interval is another chance for noise to look like a difference, so the looks share the error
rate instead of each spending all of it.

Look k (1, 2, ...) uses the interval at confidence 1 - ALPHA/(k(k+1)): the error rate spent
over any number of looks is at most ALPHA times the sum of 1/(k(k+1)), which is 1 (a union
bound, as in alpha spending, Lan & DeMets 1983, with a spending sequence that never runs
out). The first look is at 97.5 %, the second at 99.2 %, the tenth at 99.95 %: a verdict
reached late needs a clearer difference.

:class:`Looks` is the one bookkeeping of every command with ``--until-decided`` (smoke
``--against``, matrix, ladder ``--apps``, replicate): the run calls :meth:`Looks.enough` after
each pass it may stop at, with a function that says how many of its comparisons are still
undecided at a given confidence; the final verdicts are judged at :meth:`Looks.final_confidence`.
The error rate is per comparison: each comparison's chance of a wrong verdict over all the
looks is at most ALPHA.
"""

import time
from collections.abc import Callable
from dataclasses import dataclass

ALPHA = 0.05
# The default of --max-time, in seconds.
DEFAULT_MAX_TIME_S = 600.0


def look_confidence(look: int, alpha: float = ALPHA) -> float:
    """The confidence of the interval at look ``look`` (from 1)."""
    if look < 1:
        raise ValueError(f"looks count from 1, not {look}")
    return 1 - alpha / (look * (look + 1))


class Looks:
    """``--until-decided``'s looks at a run that adds passes: how many were made, at which
    confidence, and when to stop (every comparison decided, or ``max_time_s`` since it was made
    is up). ``clock`` is a monotonic clock in seconds (a fake one in tests)."""

    def __init__(self, max_time_s: float, clock: Callable[[], float] = time.monotonic) -> None:
        if not max_time_s > 0:
            raise ValueError(f"--max-time is a number of seconds above 0, not {max_time_s:g}")
        self.max_time_s = max_time_s
        self._clock = clock
        self._deadline = clock() + max_time_s
        self.looks = 0
        self.passes_looked_at = 0
        # How many comparisons were undecided, and of how many, at the last look.
        self.undecided = 0
        self.comparisons = 0

    @property
    def time_up(self) -> bool:
        return self._clock() >= self._deadline

    def enough(self, passes: int, undecided_at: Callable[[float], tuple[int, int]]) -> bool:
        """Look at the run after ``passes`` passes: ``undecided_at(confidence)`` says how many
        comparisons are undecided at this look's confidence, and of how many. True when none
        is, or the time is up."""
        self.looks += 1
        self.passes_looked_at = passes
        self.undecided, self.comparisons = undecided_at(look_confidence(self.looks))
        return self.undecided == 0 or self.time_up

    def final_confidence(self, passes: int) -> float:
        """The confidence of the final verdicts after ``passes`` passes: the last look's, or a
        look of its own when passes were added after it (or none was made)."""
        if self.looks == 0 or passes != self.passes_looked_at:
            self.looks += 1
            self.passes_looked_at = passes
        return look_confidence(self.looks)

    def made(self, passes: int, decided: int, comparisons: int) -> "LooksMade":
        """The record of the looks once the run is over: ``passes`` made, ``decided`` of the
        ``comparisons`` at :meth:`final_confidence`'s (call it first)."""
        return LooksMade(
            passes=passes,
            looks=self.looks,
            confidence=look_confidence(max(self.looks, 1)),
            decided=decided,
            comparisons=comparisons,
            max_time_s=self.max_time_s,
            time_up=self.time_up,
        )


@dataclass(frozen=True)
class LooksMade:
    """What ``--until-decided`` did: how many passes and looks, the confidence of the final
    verdicts (the last look's), how many of the run's comparisons they decided, and whether
    the time was up."""

    passes: int
    looks: int
    confidence: float
    decided: int
    comparisons: int
    max_time_s: float
    time_up: bool

    def summary(self) -> str:
        """ "--until-decided: 9 passes, 4 looks, the last at 99.75 % confidence (the 5 % shared
        across the looks); 3 of 3 comparisons decided"."""
        said = (
            f"--until-decided: {_count(self.passes, 'pass', 'passes')}, "
            f"{_count(self.looks, 'look', 'looks')}, the last at {100 * self.confidence:.2f} % "
            f"confidence (the 5 % shared across the looks); {self.decided} of "
            f"{_count(self.comparisons, 'comparison', 'comparisons')} decided"
        )
        if self.decided < self.comparisons:
            said += (
                f" (--max-time {self.max_time_s:g} s was up)"
                if self.time_up
                else " (the most passes were made)"
            )
        return said


def _count(number: int, one: str, many: str) -> str:
    return f"{number} {one if number == 1 else many}"
