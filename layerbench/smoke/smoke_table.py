"""What ``layerbench smoke`` prints: the baseline it saved, and its verdicts against one. A
median is the same in both: stats/spread.py's (for an even number of repeats, the mean of the
middle two)."""

from collections.abc import Sequence
from pathlib import Path

from layerbench.render.text_table import TERMINAL_WIDTH, fitted_lines, format_table
from layerbench.smoke.smoke_result import MIN_TRIALS, Verdict
from layerbench.stats.spread import Spread
from layerbench.stats.verdict import percent


def saved_line(path: Path, rates: dict[str, list[float]]) -> str:
    return f"baseline saved to {path}: " + ", ".join(
        f"{url} {Spread.of(values).median:,.0f} req/s" for url, values in rates.items()
    )


def verdict_lines(
    verdicts: Sequence[Verdict], tolerance: float, against: str = "the baseline"
) -> list[str]:
    """A table of every URL, then one line for each that regressed, and one for those that
    could not be decided. ``against`` names what "before" is."""
    rows = [["url", "before req/s", "now req/s", "now/before", "verdict", ""]]
    for verdict in verdicts:
        c = verdict.comparison
        rows.append(
            [
                verdict.url,
                f"{c.median_a:,.0f}",
                f"{c.median_b:,.0f}",
                f"{c.ratio:.3f}",
                c.verdict,
                verdict.word,
            ]
        )
    lines = format_table(rows, right_from=1, left=(4,))
    if any(len(line) > TERMINAL_WIDTH for line in lines):
        # Too wide with the verdicts in a column: each row's verdict on the lines under it.
        lines = []
        narrow = format_table([[*row[:4], row[5]] for row in rows], right_from=1)
        under: list[Verdict | None] = [None, *verdicts]  # the header has none
        for line, below in zip(narrow, under, strict=True):
            lines.append(line)
            if below is not None:
                lines += fitted_lines([f"  {below.comparison.verdict}"])
    for verdict in verdicts:
        if verdict.regressed:
            slower = percent(1 - verdict.comparison.ratio, sign=False)
            lines.append(
                _wrapped(
                    f"{verdict.url} regressed: {slower} slower than {against} (beyond the "
                    f"{percent(tolerance, sign=False)} tolerated, and decided)"
                )
            )
    undecided = [verdict.url for verdict in verdicts if not verdict.decided]
    if undecided:
        advice = f"measure with more --repeats (at least {MIN_TRIALS})"
        if against == "the baseline":
            advice += (
                ", or against the baseline's code in the same run (--against REF), where the "
                "machine's drift cancels"
            )
        lines.append(_wrapped(f"inconclusive, not failed: {', '.join(undecided)}; {advice}"))
    return lines


def _wrapped(sentence: str) -> str:
    """A sentence within the terminal's 120 columns: one item, its lines joined."""
    return "\n".join(fitted_lines([sentence]))
