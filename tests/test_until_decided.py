"""--until-decided's repeated looks (layerbench.stats.sequential): the looks share the 5 %."""

import pytest

from layerbench.stats.comparison import compare_paired
from layerbench.stats.sequential import look_confidence


def test_the_looks_spend_at_most_alpha_whatever_their_number() -> None:
    assert look_confidence(1) == pytest.approx(0.975)
    assert look_confidence(2) == pytest.approx(1 - 0.05 / 6)
    spent = sum(1 - look_confidence(k) for k in range(1, 10_000))
    assert spent < 0.05


def test_a_later_look_needs_a_clearer_difference() -> None:
    a = [1000.0, 1000.0, 1000.0, 1000.0, 1000.0, 1000.0]
    b = [960.0, 930.0, 955.0, 940.0, 950.0, 945.0]
    first = compare_paired("/", a, b, 0.02, confidence=look_confidence(1))
    tenth = compare_paired("/", a, b, 0.02, confidence=look_confidence(10))
    assert first is not None and tenth is not None
    assert first.ci_low is not None and tenth.ci_low is not None
    assert tenth.ci_low < first.ci_low


def test_looks_count_from_one() -> None:
    with pytest.raises(ValueError):
        look_confidence(0)
