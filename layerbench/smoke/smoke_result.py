"""What a performance smoke test concludes: per URL, its req/s now against its baseline's, one
verdict (:mod:`layerbench.stats.verdict`) and whether it regressed.

A URL has regressed when its verdict is *slower* (its 95 % interval of now over baseline lies
below 1 and not within ±tolerance) and its ratio is below 1 - tolerance: noise alone does not
fail a build, and neither does a real but tolerated slowdown. A verdict rests on at least
``MIN_TRIALS`` trials on each side; with fewer it is *inconclusive*, never *regressed*.

Against a stored baseline (:func:`judge`) the two were measured apart: the interval is that of
the ratio of medians, widened by the drift the two show (:mod:`layerbench.stats.apart`).
Against a reference measured in the same run (``smoke --against``, :func:`judge_paired`) the
URL's baseline and candidate trials of each pass are paired
(:mod:`layerbench.stats.paired`), and the machine's drift between passes cancels.

What the command's exit status is for each outcome is :func:`exit_status`'s."""

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from layerbench.errors import EXIT_MEASUREMENT_FAILED, ConfigError
from layerbench.stats.apart import compare_apart, drift_between
from layerbench.stats.comparison import RungComparison, compare_paired
from layerbench.stats.paired import CONFIDENCE
from layerbench.stats.verdict import Outcome

# A verdict needs this many trials of each side (passes, with --against).
MIN_TRIALS = 5

EXIT_PASSED = 0
EXIT_REGRESSED = 1
EXIT_USAGE = 2
# Only with --fail-inconclusive; without it an inconclusive URL is a warning and exit 0.
EXIT_INCONCLUSIVE = 3
EXIT_STATUSES = (
    f"exit status: {EXIT_PASSED} when no URL regressed (an inconclusive URL is a warning, "
    f"not a failure); {EXIT_REGRESSED} when a URL is decidedly slower beyond the tolerance; "
    f"{EXIT_USAGE} on a usage error or when nothing could be measured; {EXIT_INCONCLUSIVE} "
    "with --fail-inconclusive when no URL regressed but one could not be decided; "
    f"{EXIT_MEASUREMENT_FAILED} when the measurement failed once begun (the server died, the "
    "load generator or the requests failed)."
)


@dataclass(frozen=True)
class Verdict:
    url: str
    comparison: RungComparison
    regressed: bool

    @property
    def decided(self) -> bool:
        return self.comparison.judged.decided

    @property
    def word(self) -> str:
        if self.regressed:
            return "REGRESSED"
        return "ok" if self.decided else "inconclusive"


def check_in_baseline(baseline: Mapping[str, Sequence[float]], urls: Iterable[str]) -> None:
    """Every URL has a baseline to be judged against."""
    missing = [url for url in urls if url not in baseline]
    if missing:
        raise ConfigError(f"the baseline has no {missing[0]}: measure it with --save")


def judge(
    baseline: Mapping[str, Sequence[float]],
    current: Mapping[str, Sequence[float]],
    tolerance: float,
) -> list[Verdict]:
    """Each URL now against a stored baseline, measured apart."""
    check_in_baseline(baseline, current)
    verdicts = []
    for url, rates in current.items():
        before, now = list(baseline[url]), list(rates)
        drift = drift_between(before, now)
        comparison = compare_apart(url, before, now, drift, tolerance, min_trials=MIN_TRIALS)
        verdicts.append(_verdict(url, comparison, tolerance))
    return verdicts


def judge_paired(
    baseline: Mapping[str, Sequence[float]],
    candidate: Mapping[str, Sequence[float]],
    tolerance: float,
    confidence: float = CONFIDENCE,
) -> list[Verdict]:
    """Each URL of the candidate against the baseline's application measured in the same run:
    ``baseline[url][i]`` and ``candidate[url][i]`` in pass i; the interval at ``confidence``
    (less than 95 % only for a repeated look, :mod:`layerbench.stats.sequential`)."""
    check_in_baseline(baseline, candidate)
    verdicts = []
    for url, rates in candidate.items():
        comparison = compare_paired(
            url, baseline[url], rates, tolerance, min_passes=MIN_TRIALS, confidence=confidence
        )
        if comparison is None:
            raise ConfigError(f"{url}: no pass measured both the baseline and the candidate")
        verdicts.append(_verdict(url, comparison, tolerance))
    return verdicts


def _verdict(url: str, comparison: RungComparison, tolerance: float) -> Verdict:
    slower = comparison.judged.outcome is Outcome.SLOWER
    return Verdict(url, comparison, slower and comparison.ratio < 1 - tolerance)


def exit_status(verdicts: Sequence[Verdict], fail_inconclusive: bool = False) -> int:
    """EXIT_REGRESSED when a URL regressed; else EXIT_INCONCLUSIVE when one is undecided and
    ``fail_inconclusive``; else EXIT_PASSED."""
    if any(verdict.regressed for verdict in verdicts):
        return EXIT_REGRESSED
    if fail_inconclusive and not all(verdict.decided for verdict in verdicts):
        return EXIT_INCONCLUSIVE
    return EXIT_PASSED
