"""A published claim judged on served instructions per request instead of req/s.

A request that costs fewer instructions is the faster one, so the claim "B is faster than A by
``claimed``" (B's req/s over A's) is compared with A's instructions per request over B's. A
count is deterministic but not identical from one start of a server to the next (which thread
of Apache's a connection lands on, a timer's tick): each side is counted ``n`` times, and its
*spread* is the range of its counts over their median, taken as at least ``MIN_SPREAD``. The
ratio's interval is the ratio of the medians widened by ``DWARF`` times the two sides' spreads
added; a verdict is given when the difference stands out of that interval, that is when it
dwarfs the spread (:func:`~layerbench.stats.claim_verdict.judge_claim`, the rule req/s claims are
judged by). One count on a side has no spread: inconclusive."""

from collections.abc import Mapping
from dataclasses import dataclass
from statistics import median
from typing import Any

from layerbench.served.served_table import counted_calls
from layerbench.stats.claim_verdict import (
    SAME_WITHIN,
    ClaimOutcome,
    ClaimVerdict,
    judge_claim,
)

# A side's spread is taken as at least this (the run-to-run agreement a served count is held
# to): two counts that happen to agree exactly do not make an interval of a point.
MIN_SPREAD = 0.005
# A difference is decided when it stands out of the spreads added, this many times over.
DWARF = 3.0
# Counts of each side a published claim is judged on, by default, and at most (each count
# starts the server twice).
COUNTS = 2
MAX_SERVED_COUNTS = 5


@dataclass(frozen=True)
class CountedClaim:
    """The verdict on the counts, and the counts it was given (instructions per request)."""

    verdict: ClaimVerdict
    figure_counts: tuple[float, ...]
    reference_counts: tuple[float, ...]

    def text(self) -> str:
        """ "claimed +9 %, here +426 % [+397 %, +455 %]: the direction holds, the size
        differs"."""
        return self.verdict.text()


def spread(counts: tuple[float, ...]) -> float:
    """The range of ``counts`` over their median, at least MIN_SPREAD."""
    middle = median(counts)
    if middle <= 0:
        raise ValueError(f"instructions per request must be positive, not {counts}")
    return max((max(counts) - min(counts)) / middle, MIN_SPREAD)


def judge_counts(
    claimed_ratio: float | None,
    same: bool,
    figure_counts: tuple[float, ...],
    reference_counts: tuple[float, ...],
    *,
    same_within: float = SAME_WITHIN,
) -> CountedClaim:
    """The claim that the figure is faster than the reference by ``claimed_ratio`` (or, ``same``,
    about as fast), judged on each side's instructions per request, counted several times."""
    ratio = median(reference_counts) / median(figure_counts)
    if len(figure_counts) < 2 or len(reference_counts) < 2:
        verdict = ClaimVerdict(
            ClaimOutcome.INCONCLUSIVE, claimed_ratio, ratio, None, None, "one count: no spread"
        )
        return CountedClaim(verdict, figure_counts, reference_counts)
    margin = DWARF * (spread(figure_counts) + spread(reference_counts))
    low, high = ratio * max(0.0, 1 - margin), ratio * (1 + margin)
    verdict = judge_claim(claimed_ratio, same, ratio, low, high, same_within=same_within)
    return CountedClaim(verdict, figure_counts, reference_counts)


def deciding_figure(counted: ClaimVerdict | None, rates: ClaimVerdict | None) -> str:
    """Which figure decides a claim about what a request costs: the instructions when they
    decide it, else req/s when they do, else neither."""
    if counted is not None and counted.decided:
        return "instructions"
    if rates is not None and rates.decided:
        return "req/s"
    return "neither"


@dataclass(frozen=True)
class SideCounts:
    """A configuration's counts, in the order made: its instructions per request (every role
    added) and its system calls per request beside them."""

    instructions: tuple[float, ...]
    syscalls: tuple[float, ...]
    errors: tuple[str, ...] = ()


# Which of a column's counts a figure is judged on: its served cost (after a warm-up), its
# first requests after a start, or its second run after them.
SERVED, FIRST, SECOND, SETTLED = "served", "first", "second", "settled"


def side_counts(served: Mapping[str, Any], label: str, which: str = SERVED) -> SideCounts | None:
    """The column ``label``'s counts in a matrix's ``served`` document: its served cost's, every
    count (the first alone when the run counted once), its first requests' (FIRST), its
    second run's (SECOND) or its settled counts' (SETTLED); None when it has none."""
    if which in {FIRST, SECOND, SETTLED}:
        kept = "settled" if which == SETTLED else "first_requests"
        rows = served.get(kept, {}).get("counts", {}).get(label)
        if rows is None:
            return None
        if which == SECOND:
            rows = [
                row.get("second_run", {"error": row.get("error", "not counted")}) for row in rows
            ]
        good = [row for row in rows if "error" not in row]
        return SideCounts(
            tuple(float(row["instructions_per_request"]) for row in good),
            tuple(counted_calls(row["syscalls_per_request"]) for row in good),
            tuple(str(row["error"]) for row in rows if "error" in row),
        )
    rows = served.get("counts", {}).get(label)
    if rows is None:
        single = served.get("costs", {}).get(label)
        rows = [single] if single is not None else None
    if rows is None:
        return None
    good = [row for row in rows if "error" not in row]
    return SideCounts(
        tuple(sum(row["instructions_per_request"].values()) for row in good),
        tuple(_served_calls(row) for row in good),
        tuple(str(row["error"]) for row in rows if "error" in row),
    )


def _served_calls(row: Mapping[str, Any]) -> float:
    """A served cost's system calls per request, every role's added, as its table's column
    counts them: futex and the calls that moved with the start left out
    (:mod:`layerbench.served.start_dependent_calls`; a count that kept none, futex alone)."""
    timing = row.get("timing_calls", {})
    by_role = row["syscalls_per_request"]
    return sum(counted_calls(calls, timing.get(role)) for role, calls in by_role.items())
