"""--until-decided's repeated looks (layerbench.stats.sequential): the looks share the 5 %."""

import math
import random
from collections.abc import Callable

import pytest

from layerbench.stats.comparison import compare_paired
from layerbench.stats.paired import paired_ratio
from layerbench.stats.sequential import Looks, look_confidence
from layerbench.stats.student_t import t_quantile
from layerbench.stats.verdict import Outcome, decide


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


# --- Looks: the bookkeeping every --until-decided shares, on synthetic passes and a fake clock.


class FakeClock:
    def __init__(self) -> None:
        self.now_s = 0.0

    def __call__(self) -> float:
        return self.now_s


def undecided_counter(
    a: list[float], b: list[float], threshold: float = 0.05
) -> Callable[[float], tuple[int, int]]:
    """How many of the one comparison B/A are undecided at a confidence, on the passes so far."""

    def undecided_at(confidence: float) -> tuple[int, int]:
        estimate = paired_ratio(a, b, confidence)
        verdict = decide(estimate.ratio, estimate.ci_low, estimate.ci_high, threshold)
        return (0 if verdict.decided else 1), 1

    return undecided_at


def drifting_passes(slowdown: float, passes: int, seed: int) -> tuple[list[float], list[float]]:
    """A's and B's req/s pass by pass: the machine's speed moves up to 2x between passes (alike
    for both), each trial has 3 % noise of its own, B is ``slowdown`` slower."""
    rng = random.Random(seed)
    a, b = [], []
    for _ in range(passes):
        machine = 1000 * rng.uniform(1, 2)
        a.append(machine * rng.gauss(1, 0.03))
        b.append(machine * (1 - slowdown) * rng.gauss(1, 0.03))
    return a, b


def run_until_decided(
    looks: Looks, a_all: list[float], b_all: list[float], first: int, clock: FakeClock
) -> int:
    """Adds passes from the synthetic ones after the first ``first`` until the looks say enough
    (each pass taking 10 s of the fake clock); how many passes were used."""
    passes = first
    clock.now_s += 10 * first
    while passes < len(a_all):
        a, b = a_all[:passes], b_all[:passes]
        if looks.enough(passes, undecided_counter(a, b)):
            break
        passes += 1
        clock.now_s += 10
    return passes


def test_a_clear_slowdown_is_decided_and_the_passes_stop() -> None:
    clock = FakeClock()
    looks = Looks(600, clock)
    a_all, b_all = drifting_passes(0.15, 100, seed=1)
    passes = run_until_decided(looks, a_all, b_all, 3, clock)
    assert passes < 100
    assert looks.undecided == 0 and looks.comparisons == 1
    final = paired_ratio(a_all[:passes], b_all[:passes], looks.final_confidence(passes))
    verdict = decide(final.ratio, final.ci_low, final.ci_high)
    assert verdict.outcome is Outcome.SLOWER
    summary = looks.made(passes, 1, 1).summary()
    assert f"{passes} passes, {looks.looks} looks" in summary
    assert "1 of 1 comparison decided" in summary


def test_an_undecidable_comparison_stops_when_the_time_is_up() -> None:
    clock = FakeClock()
    looks = Looks(120, clock)
    # 5 % slower, the threshold 5 %: the interval keeps straddling -5 % (slower, and not the same)
    a_all, b_all = drifting_passes(0.05, 100, seed=2)
    passes = run_until_decided(looks, a_all, b_all, 3, clock)
    assert clock.now_s >= 120 and passes == 12
    assert looks.time_up
    assert "(--max-time 120 s was up)" in looks.made(passes, 0, 1).summary()


def test_the_final_verdict_takes_a_look_of_its_own_only_after_new_passes() -> None:
    assert Looks(600, FakeClock()).final_confidence(5) == look_confidence(1)  # none made
    looks = Looks(600, FakeClock())
    looks.enough(6, lambda confidence: (1, 1))
    assert looks.looks == 1
    assert looks.final_confidence(6) == look_confidence(1)  # the look at those passes
    assert looks.final_confidence(7) == look_confidence(2)  # a pass added after it


def test_looks_refuse_a_time_that_is_not_above_zero() -> None:
    for bad in (0.0, -1.0, math.nan):
        with pytest.raises(ValueError, match="--max-time"):
            Looks(bad, FakeClock())


def test_on_an_unchanged_comparison_the_looks_together_err_at_most_alpha() -> None:
    """2,000 runs of A against itself (pure noise), each looked at after every pass from the
    3rd to the 30th: the share that ever reads faster or slower stays within the 5 % the looks
    share; at 95 % on every look it would be several times that."""
    passes = range(3, 31)
    spent = {n: _quantile(look_confidence(n - 2), n) for n in passes}
    unspent = {n: _quantile(0.95, n) for n in passes}
    rng = random.Random(7)
    wrong = wrong_unspent = 0
    for _ in range(2000):
        logs = [rng.gauss(0, 0.05) for _ in range(30)]
        wrong += any(_directional(logs[:n], spent[n]) for n in passes)
        wrong_unspent += any(_directional(logs[:n], unspent[n]) for n in passes)
    assert wrong / 2000 <= 0.05
    assert wrong_unspent / 2000 > 0.10


def _quantile(confidence: float, passes: int) -> float:
    return t_quantile(1 - (1 - confidence) / 2, passes - 1)


def _directional(logs: list[float], quantile: float) -> bool:
    """Whether the paired interval of these per-pass log-ratios (of t ``quantile``) leaves out
    1 (no equivalence band: the strictest reading of an unchanged comparison)."""
    n = len(logs)
    mean = math.fsum(logs) / n
    sd = math.sqrt(math.fsum((x - mean) ** 2 for x in logs) / (n - 1))
    return abs(mean) > quantile * sd / math.sqrt(n)
