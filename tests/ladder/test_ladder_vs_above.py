"""A ladder's "vs above" judged on the pairs of trials measured in the same pass
(LadderResult.compared_vs_above, ladder/ladder_table.py's marks): the machine's speed doubling
every other pass cancels in the pairs."""

from layerbench.ladder.ladder_result import LadderResult, RungResult
from layerbench.ladder.ladder_table import MARKS_NOTE, format_ladder_table
from layerbench.results.status import Status
from layerbench.results.trials import Trial
from layerbench.stats.verdict import Outcome
from tests.report_documents import CONDITIONS, load, usage

# The machine at 1x, 2x, 1x, 2x.
SPEED = [1.0, 2.0, 1.0, 2.0, 1.0, 2.0]


def ladder(rates: dict[str, list[float]]) -> LadderResult:
    result = LadderResult(
        options={"server": "gunicorn", "apps": ["bare"], "concurrency": 10},
        conditions=CONDITIONS,
        started_at="2026-01-02T03:04:05+00:00",
    )
    for name, trial_rates in rates.items():
        trials = tuple(Trial(load(rate), usage({})) for rate in trial_rates)
        result.rungs.append(RungResult(name, "gunicorn", Status.OK, trials=trials))
    return result


def test_a_layer_that_costs_little_is_the_same_through_the_drift() -> None:
    string = [3000.0 * speed for speed in SPEED]
    # 1 % slower in every pass, whatever the machine's speed.
    cache = [2970.0 * speed * (1.002 if i % 2 else 0.998) for i, speed in enumerate(SPEED)]
    # 30 % slower in every pass.
    db = [2079.0 * speed for speed in SPEED]
    result = ladder({"string": string, "cache": cache, "db-raw": db})
    _, same, slower = result.compared_vs_above()
    assert same is not None and same.judged.outcome is Outcome.SAME
    assert slower is not None and slower.judged.outcome is Outcome.SLOWER
    lines = format_ladder_table(result, colour=False).splitlines()
    assert lines[2].split()[3:5] == ["-1", "%"] and lines[2].split()[5] == "≈", lines[2]
    assert lines[3].split()[3:6] == ["-30", "%", "-31"], lines[3]
    assert MARKS_NOTE in lines


def test_an_undecided_layer_is_marked() -> None:
    string = [3000.0, 3000.0, 3000.0]
    # Faster in one pass, slower in the next: the interval spans both.
    cache = [3300.0, 2700.0, 3150.0]
    lines = format_ladder_table(ladder({"string": string, "cache": cache}), colour=False)
    row = lines.splitlines()[2]
    assert row.split()[3:6] == ["+5", "%", "?"], row


def test_one_pass_is_not_marked() -> None:
    table = format_ladder_table(ladder({"string": [3000.0], "cache": [2000.0]}), colour=False)
    assert MARKS_NOTE not in table
