"""A published claim judged on served instructions per request (replicate/count_claims.py and
counted_table.py): the counts recorded by real runs of ``replicate mod_python-lineup --measure
instructions`` (each configuration counted twice on fresh starts), the verdict decided when the
difference stands out of the spreads, inconclusive when it does not; the seed table says which
figure decided each claim."""

from typing import Any

import pytest

from layerbench.matrix.matrix_result import Cell, ColumnInfo, MatrixResult
from layerbench.matrix.seed_table import format_seed_table
from layerbench.replicate.count_claims import (
    DWARF,
    FIRST,
    MIN_SPREAD,
    SECOND,
    SETTLED,
    deciding_figure,
    judge_counts,
    side_counts,
    spread,
)
from layerbench.replicate.counted_table import format_first_requests, format_settled
from layerbench.results.status import Status
from layerbench.results.trials import Trial
from layerbench.stats.claim_verdict import ClaimOutcome
from tests.report_documents import CONDITIONS, load, usage
from tests.verdict_lines import unwrapped

# Instructions per request, two counts each on fresh starts, as served (every process of the
# deployment): ``replicate mod_python-lineup --measure instructions``, each count a single
# difference of two windows (before the steady cost was told from bursts).
MOD_PYTHON = (54_145.57, 54_582.08)
UWSGI_NGINX = (87_882.55, 87_927.12)
MOD_PYTHON_WSGI = (252_934.99, 253_084.77)
# mod_wsgi's embedded mode: the long window of the second count held a burst (Python's
# interned-strings table rebuilt): a spread of 6.4 %.
MOD_WSGI_BURST = (267_993.12, 285_828.60)


def test_a_side_spread_is_its_range_over_its_median_at_least_the_floor() -> None:
    assert spread(MOD_WSGI_BURST) == pytest.approx((285_828.60 - 267_993.12) / 276_910.86)
    assert spread((100.0, 100.0)) == MIN_SPREAD


def test_a_difference_that_dwarfs_the_spread_decides_the_size_of_a_claim() -> None:
    # "the mod_python handler 2332 against mod_wsgi 2143 req/s: +9 %", even on a burst's spread.
    judged = judge_counts(2332 / 2143, False, MOD_PYTHON, MOD_WSGI_BURST)
    assert judged.verdict.outcome is ClaimOutcome.SIZE_DIFFERS
    ratio = 276_910.86 / 54_363.825
    assert judged.verdict.ratio == pytest.approx(ratio)
    margin = DWARF * (spread(MOD_PYTHON) + spread(MOD_WSGI_BURST))
    assert judged.verdict.ci_low == pytest.approx(ratio * (1 - margin))


def test_about_as_fast_does_not_hold_when_one_costs_a_third_less() -> None:
    # "mod_python is faster than you think": its handler 2332 against uWSGI behind nginx 2391.
    judged = judge_counts(2332 / 2391, True, MOD_PYTHON, UWSGI_NGINX)
    assert judged.verdict.outcome is ClaimOutcome.DOES_NOT_HOLD


def test_a_claim_the_counts_contradict_does_not_hold() -> None:
    # The post's figures read the other way: uWSGI behind nginx 2391 against its handler 2332.
    judged = judge_counts(2391 / 2332, False, UWSGI_NGINX, MOD_PYTHON)
    assert judged.verdict.outcome is ClaimOutcome.DOES_NOT_HOLD
    assert judged.verdict.ratio < 1


def test_a_difference_within_the_spread_is_inconclusive() -> None:
    # "mod_wsgi 2143 against mod_python's WSGI handler 1937 req/s: +11 %", on a burst's spread.
    judged = judge_counts(2143 / 1937, False, MOD_WSGI_BURST, MOD_PYTHON_WSGI)
    assert judged.verdict.outcome is ClaimOutcome.INCONCLUSIVE


def test_one_count_has_no_spread_and_decides_nothing() -> None:
    judged = judge_counts(1.09, False, MOD_PYTHON[:1], MOD_WSGI_BURST)
    assert judged.verdict.outcome is ClaimOutcome.INCONCLUSIVE
    assert "one count" in judged.text()


def test_the_instructions_decide_where_they_can_else_the_rates() -> None:
    decided = judge_counts(1.09, False, MOD_PYTHON, MOD_PYTHON_WSGI).verdict
    undecided = judge_counts(1.09, False, MOD_PYTHON[:1], MOD_PYTHON_WSGI).verdict
    assert deciding_figure(decided, undecided) == "instructions"
    assert deciding_figure(undecided, decided) == "req/s"
    assert deciding_figure(undecided, None) == "neither"


def cost(instructions: float, calls: float) -> dict[str, Any]:
    return {
        "instructions_per_request": {"server": 100.0, "application": instructions - 100.0},
        "syscalls_per_request": {"server": {}, "application": {"accept4": 1.0, "read": calls - 1}},
    }


def test_a_columns_counts_are_read_from_the_served_document() -> None:
    served = {
        "costs": {"a": cost(1000, 5)},
        "counts": {"a": [cost(1000, 5), {"error": "not counted: died"}, cost(1010, 6)]},
    }
    side = side_counts(served, "a")
    assert side is not None
    assert side.instructions == (1000, 1010) and side.syscalls == (5, 6)
    assert side.errors == ("not counted: died",)
    once = side_counts({"costs": served["costs"]}, "a")
    assert once is not None and once.instructions == (1000,)
    assert side_counts(served, "b") is None


def test_a_served_counts_system_calls_leave_out_those_that_depend_on_timing() -> None:
    # As the served table's column: futex, and the calls that moved with the start.
    row = cost(1000, 5)
    row["syscalls_per_request"]["application"] |= {"futex": 24.0, "utimensat": 4.2}
    row["syscalls_per_request"]["server"] = {"futex": 1.0, "read": 3.0}
    counted = side_counts({"costs": {"a": row}}, "a")
    assert counted is not None and counted.syscalls == (5 + 4.2 + 3,)  # futex alone left out
    row["timing_calls"] = {"application": {"futex": [23.0, 25.0], "utimensat": [3.3, 4.5]}}
    counted = side_counts({"costs": {"a": row}}, "a")
    assert counted is not None and counted.syscalls == (5 + 3,)


def test_the_first_requests_counts_are_read_apart_from_the_served_ones() -> None:
    count = {
        "requests": 500,
        "instructions_per_request": 9e6,
        "syscalls_per_request": {"openat": 3.0, "read": 2.0, "futex": 7.0},
        "processes": 2,
    }
    served = {"first_requests": {"requests": 500, "counts": {"a": [count, {"error": "why"}]}}}
    first = side_counts(served, "a", FIRST)
    assert first is not None and first.instructions == (9e6,) and first.syscalls == (5,)
    assert first.errors == ("why",)
    assert side_counts(served, "a") is None  # no served cost counted after a warm-up


LINEUP = {
    "uwsgi-nginx": UWSGI_NGINX,
    "mod_python": MOD_PYTHON,
    "apache-static": (30_354.48, 30_422.93),
    "mod_wsgi-embedded": MOD_WSGI_BURST,
    "mod_python-wsgi": MOD_PYTHON_WSGI,
    "uwsgi": (69_571.84,),  # counted once: its claims do not name it
}


def lineup_result() -> MatrixResult:
    result = MatrixResult(
        options={"concurrency": [1], "rung": "string"},
        conditions=CONDITIONS,
        started_at="2026-01-02T03:04:05+00:00",
    )
    for label in LINEUP:
        rung = "static" if label == "apache-static" else "string"
        result.columns.append(ColumnInfo(label, label, rung, "bare", settings={}))
        roles = {"server": [("server", 1.0, 20.0)]}
        trials = tuple(Trial(load(rate), usage(roles)) for rate in (2000.0, 2100.0, 2050.0))
        result.cells.append(Cell(label, 0, 1, Status.OK, trials=trials))
    result.served = {
        "costs": {label: cost(counts[0], 10) for label, counts in LINEUP.items()},
        "counts": {label: [cost(n, 10) for n in counts] for label, counts in LINEUP.items()},
    }
    return result


def test_the_seed_table_gives_both_verdicts_and_which_decided() -> None:
    text = format_seed_table(lineup_result(), "mod_python-lineup", colour=False)
    assert "54,146, 54,582" in text  # the mod_python handler's counts
    lines = unwrapped(text)
    decided = [line.split(":", 1)[1].strip() for line in lines if "decided by:" in line]
    # The rates are the same for every column here: "mod_wsgi faster" does not hold in req/s,
    # while a burst's spread leaves it undecided in instructions.
    assert decided == ["instructions", "instructions", "req/s"]
    verdicts = [line for line in lines if line.strip().startswith("instructions:")]
    assert "does not hold" in verdicts[0]  # about as fast as uWSGI behind nginx: no
    assert "the size differs" in verdicts[1]  # faster than mod_wsgi: by far more than 9 %
    assert "inconclusive" in verdicts[2]
    assert sum(line.strip().startswith("req/s:") for line in lines) == 3


def test_the_first_requests_table_gives_each_count_and_an_error_in_its_place() -> None:
    """The table's shape, on a document of the form a run writes (its figures made up)."""
    count = {
        "requests": 500,
        "instructions_per_request": 5_735_026.4,
        "syscalls_per_request": {"openat": 11.3, "read": 42.0},
        "processes": 9,
    }
    served = {"first_requests": {"requests": 500, "counts": {"lazy": [count, {"error": "why"}]}}}
    caption, lines = _caption_and_rows(format_first_requests(served))
    assert caption.startswith("The first 500 requests after a fresh start")
    # A run stored before the first requests had a concurrency of their own counted at 1.
    assert "concurrency 1, no warm-up" in caption
    assert lines[0].split() == ["lazy", "1", "first", "5,735,026", "53.3", "9"]
    assert lines[1].split() == ["2", "first", "why"]
    assert format_first_requests({"costs": {}}) == ""
    at_100 = {"first_requests": {**served["first_requests"], "concurrency": 100}}
    assert "concurrency 100, no warm-up" in _caption_and_rows(format_first_requests(at_100))[0]


def _caption_and_rows(table: str) -> tuple[str, list[str]]:
    """A counted table's caption (its wrapped lines joined again) and the lines under its
    header; every line within the terminal's 120 columns."""
    lines = table.splitlines()
    assert all(len(line) <= 120 for line in lines)
    header = next(i for i, line in enumerate(lines) if line.startswith("column "))
    return " ".join(lines[:header]), lines[header + 1 :]


SECOND_RUN = {
    "requests": 500,
    "concurrency": 20,
    "settle_requests": 1200,
    "windows": 2,
    "instructions_per_request": 736_002.0,
    "syscalls_per_request": {"accept4": 1.0, "read": 2.5},
    "processes": 21,
}


def test_settled_counts_are_read_and_shown() -> None:
    """A matrix's --settled counts (layerbench/replicate/settled_counts.py), each column's."""
    served = {
        "settled": {
            "requests": 500,
            "concurrency": 1,
            "counts": {"django": [SECOND_RUN, {"error": "not counted: not warm"}]},
        }
    }
    settled = side_counts(served, "django", SETTLED)
    assert settled is not None and settled.instructions == (736_002.0,)
    assert settled.errors == ("not counted: not warm",)
    assert side_counts(served, "django", FIRST) is None
    caption, lines = _caption_and_rows(format_settled(served))
    assert caption.startswith("Served, settled, per request: on a fresh start")
    assert lines[0].split() == ["django", "1", "736,002", "3.5", "21", "1,200", "requests"]
    assert lines[1].split()[:3] == ["2", "not", "counted:"]
    assert format_settled({"costs": {}}) == ""


def test_the_second_run_is_read_and_shown_beside_the_first() -> None:
    """A count's second run (layerbench/replicate/second_run.py) is its own side; a first run
    that failed has no second run, and says why."""
    count = {
        "requests": 500,
        "instructions_per_request": 5_735_026.4,
        "syscalls_per_request": {"openat": 11.3},
        "processes": 9,
        "second_run": SECOND_RUN,
    }
    failed = {**count, "second_run": {"error": "not counted: not warm"}}
    served = {
        "first_requests": {"requests": 500, "counts": {"lazy": [count, failed, {"error": "why"}]}}
    }
    second = side_counts(served, "lazy", SECOND)
    assert second is not None and second.instructions == (736_002.0,)
    assert second.syscalls == (3.5,)
    assert second.errors == ("not counted: not warm", "why")
    caption, lines = _caption_and_rows(format_first_requests(served))
    settling = "c=20 in batches until its processes stopped growing in number (1200 requests)"
    assert settling in caption
    assert lines[1].split() == ["second", "736,002", "3.5", "21"]
    assert lines[3].split()[:3] == ["second", "not", "counted:"]
