"""The one verdict of a comparison (layerbench.stats.verdict)."""

import pytest

from layerbench.stats.verdict import Outcome, decide, percent


def test_faster_and_slower_say_by_how_much_with_the_interval() -> None:
    assert decide(1.12, 1.08, 1.15).text() == "faster by 12 % [+8 %, +15 %]"
    assert decide(0.81, 0.78, 0.84).text() == "slower by 19 % [-22 %, -16 %]"


def test_the_same_within_the_threshold_wins_over_a_small_sure_difference() -> None:
    verdict = decide(1.013, 1.008, 1.020, 0.05)
    assert verdict.outcome is Outcome.SAME
    assert verdict.text() == "the same within ±5 % [+0.8 %, +2 %]"


def test_an_interval_that_spans_both_is_inconclusive() -> None:
    verdict = decide(0.95, 0.88, 1.03, 0.05, more_passes=6)
    assert verdict.outcome is Outcome.INCONCLUSIVE
    assert verdict.text() == (
        "inconclusive: the interval [-12 %, +3 %] spans both 1 and beyond ±5 %; "
        "about 6 more passes would likely decide it"
    )


def test_a_reason_makes_it_inconclusive_whatever_the_interval() -> None:
    verdict = decide(0.5, 0.4, 0.6, reason="2 trials, fewer than 5")
    assert verdict.outcome is Outcome.INCONCLUSIVE
    assert verdict.text().startswith("inconclusive: 2 trials, fewer than 5 (-50 % [-60 %, -40 %])")


def test_no_interval_is_inconclusive() -> None:
    assert decide(0.5, None, None).outcome is Outcome.INCONCLUSIVE


def test_a_threshold_is_a_fraction() -> None:
    with pytest.raises(ValueError):
        decide(1.0, 0.9, 1.1, 5)


def test_percent() -> None:
    assert percent(0.025) == "+2.5 %"
    assert percent(-0.19) == "-19 %"
    assert percent(0.05, sign=False) == "5 %"
