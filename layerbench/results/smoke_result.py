"""What a performance smoke test concludes: per URL, its req/s now against its baseline's, and
whether it regressed.

A URL has regressed when it is significantly slower (the bootstrap 95 % interval of the ratio
of medians, now over baseline, lies below 1) and slower by more than the tolerance: noise alone
does not fail a build, and neither does a real but tolerated slowdown."""

from collections.abc import Iterable
from dataclasses import dataclass

from layerbench.errors import ConfigError
from layerbench.stats.comparison import RungComparison, compare_rates


@dataclass(frozen=True)
class Verdict:
    url: str
    comparison: RungComparison
    regressed: bool


def check_in_baseline(baseline: dict[str, list[float]], urls: Iterable[str]) -> None:
    """Every URL has a baseline to be judged against."""
    missing = [url for url in urls if url not in baseline]
    if missing:
        raise ConfigError(f"the baseline has no {missing[0]}: measure it with --save")


def judge(
    baseline: dict[str, list[float]], current: dict[str, list[float]], tolerance: float
) -> list[Verdict]:
    check_in_baseline(baseline, current)
    verdicts = []
    for url, rates in current.items():
        comparison = compare_rates(url, baseline[url], rates)
        slower = comparison.ci_high is not None and comparison.ci_high < 1.0
        verdicts.append(Verdict(url, comparison, slower and comparison.ratio < 1 - tolerance))
    return verdicts
