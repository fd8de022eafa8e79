"""A published claim judged on its direction and its size (layerbench.stats.claim_verdict)."""

from layerbench.stats.claim_verdict import ClaimOutcome, judge_claim


def test_a_claim_of_20_percent_against_190_here_reads_the_size_differs() -> None:
    """Issue 35: "the SQLAlchemy ORM makes things 20 % slower", here 2.90 [2.82, 3.40], was
    "holds (faster)"."""
    verdict = judge_claim(1.20, False, 2.90, 2.82, 3.40)
    assert verdict.outcome is ClaimOutcome.SIZE_DIFFERS
    assert verdict.text() == (
        "claimed +20 %, here +190 % [+182 %, +240 %]: the direction holds, the size differs"
    )


def test_the_claimed_size_inside_the_interval_holds() -> None:
    inside = judge_claim(1.20, False, 1.22, 1.15, 1.30)
    assert inside.outcome is ClaimOutcome.HOLDS and inside.why == ""
    assert judge_claim(1.20, False, 1.45, 1.40, 1.50).outcome is ClaimOutcome.SIZE_DIFFERS


def test_a_claimed_size_held_only_by_the_allowance_says_so() -> None:
    """+20 % against [+22 %, +40 %]: outside our interval, within the post's 3 %."""
    near = judge_claim(1.20, False, 1.32, 1.22, 1.40)
    assert near.outcome is ClaimOutcome.HOLDS
    assert near.text() == (
        "claimed +20 %, here +32 % [+22 %, +40 %]: holds (within the 3 % allowed the post's "
        "figures, outside our interval)"
    )


def test_a_claim_of_49_percent_against_28_to_36_here_reads_the_size_differs() -> None:
    """mod_wsgi's modes at c=200: the 10 % tolerance once let this hold."""
    verdict = judge_claim(1.49, False, 1.32, 1.28, 1.36)
    assert verdict.outcome is ClaimOutcome.SIZE_DIFFERS
    wider = judge_claim(1.49, False, 1.32, 1.28, 1.36, size_allowance=0.10)
    assert wider.outcome is ClaimOutcome.HOLDS


def test_the_other_direction_or_no_difference_does_not_hold() -> None:
    same = judge_claim(1.30, False, 0.99, 0.97, 1.02)
    assert same.outcome is ClaimOutcome.DOES_NOT_HOLD
    assert same.text().endswith(": does not hold (the same within ±5 % here)")
    clearly = judge_claim(1.30, False, 0.8, 0.75, 0.85)
    assert clearly.outcome is ClaimOutcome.DOES_NOT_HOLD and clearly.why == "slower here"


def test_an_interval_across_1_is_inconclusive() -> None:
    verdict = judge_claim(1.30, False, 1.30, 0.90, 3.58)
    assert verdict.outcome is ClaimOutcome.INCONCLUSIVE
    assert judge_claim(1.30, False, 1.30, None, None).outcome is ClaimOutcome.INCONCLUSIVE


def test_about_as_fast() -> None:
    assert judge_claim(None, True, 1.01, 0.98, 1.03).outcome is ClaimOutcome.HOLDS
    assert judge_claim(None, True, 1.5, 1.3, 1.6).outcome is ClaimOutcome.DOES_NOT_HOLD
    assert judge_claim(None, True, 1.05, 0.99, 1.12).outcome is ClaimOutcome.INCONCLUSIVE


def test_without_a_claimed_size_only_the_direction_is_judged() -> None:
    verdict = judge_claim(None, False, 2.9, 2.8, 3.4)
    assert verdict.outcome is ClaimOutcome.HOLDS
    assert verdict.sizes() == "no size claimed, here +190 % [+180 %, +240 %]"
