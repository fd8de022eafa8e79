"""System calls over several native starts: a call whose figure moves with the start is told
apart from the data, marked with its range and left out of the calls per request; and the
table that shows it, from a stored document."""

import dataclasses

import pytest

from layerbench.errors import ConfigError
from layerbench.served.served_cost import ServedCost
from layerbench.served.served_table import (
    format_served_table,
    served_document,
    served_from_document,
    syscall_line,
)
from layerbench.served.served_windows import CountedSyscalls, Windows
from layerbench.served.start_dependent_calls import over_starts, resolution
from tests.served_conditions import served_conditions
from tests.served_table_rows import caption, served_rows

EXTRA = 400  # requests between the two window sizes
WINDOW_S = 4.0


def _start(application: dict[str, float], idle: dict[str, float] | None = None) -> CountedSyscalls:
    return CountedSyscalls(
        per_request={"server": {"newfstatat": 0.0}, "application": application},
        uncertainty={"server": 0.01, "application": 0.02},
        idle_per_second={"server": {"newfstatat": 2.0}, "application": idle or {}},
    )


# gunicorn's two sync workers: the request's own calls the same in every start, the race for
# a connection (both workers woken, one loses) settled one way or the other by the start.
STARTS = [
    _start({"accept4": 3.0, "recvfrom": 2.0, "sendto": 2.0, "utimensat": 5.0, "futex": 0.3}),
    _start({"accept4": 2.5, "recvfrom": 2.0, "sendto": 2.0, "utimensat": 4.5, "futex": 0.3}),
    _start({"accept4": 2.9, "recvfrom": 2.0, "sendto": 2.0, "utimensat": 4.9, "futex": 0.2}),
]


def test_calls_that_move_with_the_start_marked_with_their_range() -> None:
    calls = over_starts(STARTS, EXTRA, WINDOW_S)
    timing = calls.timing["application"]
    assert timing == {"accept4": [2.5, 3.0], "utimensat": [4.5, 5.0], "futex": [0.2, 0.3]}
    assert "recvfrom" not in timing and "sendto" not in timing
    assert calls.per_request["application"]["accept4"] == pytest.approx(8.4 / 3)
    assert calls.per_request["application"]["recvfrom"] == 2.0
    assert calls.per_start == [start.per_request for start in STARTS]
    assert calls.uncertainty == {"server": 0.01, "application": 0.02}


def test_futex_marked_even_when_every_start_agrees() -> None:
    same = _start({"read": 1.0, "futex": 2.0})
    assert over_starts([same, same], EXTRA, WINDOW_S).timing["application"] == {"futex": [2.0, 2.0]}
    assert over_starts([same], EXTRA, WINDOW_S).timing["application"] == {"futex": [2.0, 2.0]}


def test_what_a_count_cannot_resolve_does_not_move_a_call() -> None:
    # A timer's call (10 a second while idle) one fire apart, a stray call apart: not moved.
    fire = resolution(10.0, EXTRA, WINDOW_S)
    assert fire == pytest.approx((10.0 * 4 / 3 + 1) / EXTRA)
    idle = {"epoll_wait": 10.0}
    starts = [_start({"epoll_wait": 1.0}, idle), _start({"epoll_wait": 1.0 + 1.9 * fire}, idle)]
    assert over_starts(starts, EXTRA, WINDOW_S).timing["application"] == {}
    # Beyond it, the same difference on a call not made while idle moves it.
    quiet = [_start({"read": 1.0}), _start({"read": 1.0 + 1.9 * fire})]
    assert over_starts(quiet, EXTRA, WINDOW_S).timing["application"] == {
        "read": [1.0, 1.0 + 1.9 * fire]
    }


def test_a_call_within_half_a_percent_of_its_mean_does_not_move() -> None:
    starts = [_start({"newfstatat": 1200.0}), _start({"newfstatat": 1205.0})]
    assert over_starts(starts, EXTRA, WINDOW_S).timing["application"] == {}
    starts = [_start({"newfstatat": 1200.0}), _start({"newfstatat": 1210.0})]
    assert "newfstatat" in over_starts(starts, EXTRA, WINDOW_S).timing["application"]


def test_a_call_one_start_did_not_make_counted_zero_there() -> None:
    starts = [_start({"read": 1.0, "poll": 0.5}), _start({"read": 1.0})]
    calls = over_starts(starts, EXTRA, WINDOW_S)
    assert calls.timing["application"] == {"poll": [0.0, 0.5]}
    assert calls.per_request["application"]["poll"] == 0.25


def test_a_call_that_moves_between_the_rounds_of_each_start_is_marked() -> None:
    # Its starts' means agree; its rounds do not: the race flips within a start too.
    rounds = [
        {"application": {"read": 2.0, "poll": 1.0}},
        {"application": {"read": 2.0, "poll": 1.4}},
    ]
    start = dataclasses.replace(_start({"read": 2.0, "poll": 1.2}), per_round=rounds)
    calls = over_starts([start, start], EXTRA, WINDOW_S)
    assert calls.timing["application"] == {"poll": [1.2, 1.2]}
    assert calls.rounds_per_start == [rounds, rounds]


def test_starts_refused_below_one() -> None:
    with pytest.raises(ConfigError, match="1 or more starts"):
        Windows(starts=0)


COST = ServedCost(
    instructions_per_request={"server": 0.0, "application": 454_000.0},
    syscalls_per_request={"server": {}, "application": {}},
    processes={"server": 1, "application": 2},
    conditions=served_conditions(syscall_starts=3),
)


def _counted(starts: list[CountedSyscalls]) -> ServedCost:
    calls = over_starts(starts, EXTRA, WINDOW_S)
    return dataclasses.replace(
        COST,
        syscalls_per_request=calls.per_request,
        syscalls_per_start=calls.per_start,
        syscall_rounds_per_start=calls.rounds_per_start,
        timing_calls=calls.timing,
    )


def test_the_table_marks_the_moving_calls_and_leaves_them_out_of_the_column() -> None:
    cost = _counted(STARTS)
    read, _ = served_from_document(served_document({"gunicorn": cost}, {}))
    assert read == {"gunicorn": cost}
    table = format_served_table(read)
    assert "their mean over 3 native starts" in caption(table)
    row = served_rows(table)["gunicorn"]["application"]
    # Only recvfrom and sendto, made whatever the start, are in the column.
    assert row.split()[1:4] == ["2", "454,000", "4.0"]
    assert "utimensat 4.5 to 5.0 (timing)" in row
    assert "accept4 2.5 to 3.0 (timing)" in row
    assert "futex 0.2 to 0.3 (timing)" in row
    assert "recvfrom 2.0, sendto 2.0" in row


def test_a_marked_call_whose_starts_read_alike_shows_one_figure() -> None:
    line = syscall_line(
        {"futex": 3.0, "read": 1.0, "poll": 1.3}, {"futex": [3.0, 3.0], "poll": [1.2, 1.4]}
    )
    assert line == "futex 3.0 (timing), poll 1.2 to 1.4 (timing), read 1.0"


def test_a_document_of_one_start_marks_futex_alone() -> None:
    calls = {"accept4": 2.9, "utimensat": 4.9, "futex": 0.3}
    cost = dataclasses.replace(
        COST,
        syscalls_per_request={"server": {}, "application": calls},
        conditions=dataclasses.replace(COST.conditions, syscall_starts=1),  # type: ignore[arg-type]
    )
    document = served_document({"gunicorn": cost}, {})
    for dropped in ("syscalls_per_start", "timing_calls"):
        del document["costs"]["gunicorn"][dropped]  # type: ignore[index, union-attr]
    del document["costs"]["gunicorn"]["conditions"]["syscall_starts"]  # type: ignore[index, call-overload]
    read, _ = served_from_document(document)
    table = format_served_table(read)
    assert "futex (timing) not in their column" in caption(table)
    row = served_rows(table)["gunicorn"]["application"]
    assert row.split()[1:4] == ["2", "454,000", "7.8"]
    assert "utimensat 4.9, accept4 2.9, futex 0.3 (timing)" in row
