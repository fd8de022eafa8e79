"""What ``layerbench smoke`` prints: the baseline it saved, and its verdicts against one. A
median is the same in both: stats/spread.py's (for an even number of repeats, the mean of the
middle two)."""

from collections.abc import Sequence
from pathlib import Path

from layerbench.report.text_table import format_table
from layerbench.results.smoke_result import Verdict
from layerbench.stats.spread import Spread


def saved_line(path: Path, rates: dict[str, list[float]]) -> str:
    return f"baseline saved to {path}: " + ", ".join(
        f"{url} {Spread.of(values).median:,.0f} req/s" for url, values in rates.items()
    )


def verdict_lines(verdicts: Sequence[Verdict], tolerance: float) -> list[str]:
    """A table of every URL, then one line for each that regressed."""
    rows = [["url", "baseline req/s", "now req/s", "now/baseline", "95 % interval", ""]]
    for verdict in verdicts:
        c = verdict.comparison
        interval = f"{c.ci_low:.3f} to {c.ci_high:.3f}" if c.ci_low and c.ci_high else ""
        word = "REGRESSED" if verdict.regressed else "ok"
        rows.append(
            [
                verdict.url,
                f"{c.median_a:,.0f}",
                f"{c.median_b:,.0f}",
                f"{c.ratio:.3f}",
                interval,
                word,
            ]
        )
    lines = format_table(rows, right_from=1)
    for verdict in verdicts:
        if verdict.regressed:
            slower = 1 - verdict.comparison.ratio
            lines.append(
                f"{verdict.url} regressed: {slower:.0%} slower than the baseline "
                f"(beyond the {tolerance:.0%} tolerated, and significant)"
            )
    return lines
