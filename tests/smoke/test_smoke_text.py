"""What ``smoke`` prints: the median of an even number of repeats is the same, stats/spread.py's
(the mean of the middle two), in the line that saves a baseline and in the comparison with it."""

from pathlib import Path

from layerbench.smoke.smoke_result import (
    EXIT_INCONCLUSIVE,
    EXIT_PASSED,
    EXIT_REGRESSED,
    EXIT_USAGE,
    exit_status,
    judge,
    judge_paired,
)
from layerbench.smoke.smoke_table import saved_line, verdict_lines

EVEN_REPEATS = {"/": [100.0, 400.0, 200.0, 300.0]}


def test_saved_and_compared_the_baseline_has_one_median() -> None:
    assert saved_line(Path("perf.json"), EVEN_REPEATS) == "baseline saved to perf.json: / 250 req/s"
    lines = verdict_lines(judge(EVEN_REPEATS, EVEN_REPEATS, 0.1), 0.1)
    assert lines[1].split()[:4] == ["/", "250", "250", "1.000"]


def test_a_regression_is_named_below_the_table() -> None:
    before = {"/": [250.0, 252.0, 248.0, 251.0, 249.0]}
    slower = {"/": [50.0, 52.0, 49.0, 51.0, 50.0]}
    lines = verdict_lines(judge(before, slower, 0.1), 0.1)
    assert lines[1].split()[-1] == "REGRESSED"
    assert lines[-1] == (
        "/ regressed: 80 % slower than the baseline (beyond the 10 % tolerated, and decided)"
    )


def test_a_smoke_of_two_trials_is_never_regressed() -> None:
    """Issue 35: 2 repeats of an unchanged application read 0.809 [0.779, 0.842] REGRESSED."""
    before = {"/": [1000.0, 1010.0]}
    for now in ({"/": [809.0, 812.0]}, {"/": [100.0, 101.0]}):
        for verdicts in (judge(before, now, 0.1), judge_paired(before, now, 0.1)):
            (verdict,) = verdicts
            assert not verdict.regressed
            assert verdict.word == "inconclusive"
            assert "2 trials, fewer than 5" in verdict.comparison.verdict or (
                "2 passes, fewer than 5" in verdict.comparison.verdict
            )
            assert exit_status(verdicts) == EXIT_PASSED
            assert exit_status(verdicts, fail_inconclusive=True) == EXIT_INCONCLUSIVE
            lines = verdict_lines(verdicts, 0.1)
            assert lines[1].split()[-1] == "inconclusive"
            assert lines[-1].startswith("inconclusive, not failed: /; ")


def test_paired_against_a_reference_sees_through_the_drift() -> None:
    # The machine at 1x and 2x in turn; the candidate 20 % slower in every pass.
    speed = [1.0, 2.0, 1.0, 2.0, 1.0, 2.0]
    before = {"/": [1000.0 * s for s in speed]}
    now = {"/": [800.0 * s * (1.01 if i % 2 else 0.99) for i, s in enumerate(speed)]}
    (paired,) = judge_paired(before, now, 0.1)
    assert paired.regressed and exit_status([paired]) == EXIT_REGRESSED
    (apart,) = judge(before, now, 0.1)
    assert not apart.regressed and apart.word == "inconclusive"


def test_exit_statuses_are_distinct() -> None:
    assert len({EXIT_PASSED, EXIT_REGRESSED, EXIT_USAGE, EXIT_INCONCLUSIVE}) == 4
    assert EXIT_USAGE == 2
