"""What ``smoke --measure instructions`` concludes: per URL, its instructions per request now
against its baseline's (medians of the repeats), and whether it regressed: more instructions
than the baseline's by more than the tolerance. A count hardly moves between runs (its CV is
hundredths of a percent), so the tolerance alone decides."""

from dataclasses import dataclass

from layerbench.errors import ConfigError
from layerbench.stats.median import median


@dataclass(frozen=True)
class InstructionsVerdict:
    url: str
    baseline_median: float
    now_median: float
    regressed: bool

    @property
    def ratio(self) -> float:
        """Now over the baseline: above 1 is more expensive."""
        return self.now_median / self.baseline_median if self.baseline_median else float("inf")


def judge_instructions(
    baseline: dict[str, list[float]], current: dict[str, list[float]], tolerance: float
) -> list[InstructionsVerdict]:
    missing = [url for url in current if url not in baseline]
    if missing:
        raise ConfigError(f"the baseline has no {missing[0]}: measure it with --save")
    verdicts = []
    for url, values in current.items():
        before = median(baseline[url])
        now = median(values)
        verdicts.append(InstructionsVerdict(url, before, now, now > before * (1 + tolerance)))
    return verdicts
