"""What ``smoke`` prints: the median of an even number of repeats is the same, stats/spread.py's
(the mean of the middle two), in the line that saves a baseline and in the comparison with it."""

from pathlib import Path

from layerbench.report.smoke_table import saved_line, verdict_lines
from layerbench.results.smoke_result import judge

EVEN_REPEATS = {"/": [100.0, 400.0, 200.0, 300.0]}


def test_saved_and_compared_the_baseline_has_one_median() -> None:
    assert saved_line(Path("perf.json"), EVEN_REPEATS) == "baseline saved to perf.json: / 250 req/s"
    lines = verdict_lines(judge(EVEN_REPEATS, EVEN_REPEATS, 0.1), 0.1)
    assert lines[1].split()[:4] == ["/", "250", "250", "1.000"]


def test_a_regression_is_named_below_the_table() -> None:
    slower = {"/": [50.0, 52.0, 49.0, 51.0]}
    lines = verdict_lines(judge(EVEN_REPEATS, slower, 0.1), 0.1)
    assert lines[1].split()[-1] == "REGRESSED"
    assert lines[-1] == (
        "/ regressed: 80% slower than the baseline (beyond the 10% tolerated, and significant)"
    )
