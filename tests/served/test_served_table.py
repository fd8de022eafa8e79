"""The served cost's table, from a stored document; and what ``ladder --measure`` refuses
before the ladder runs."""

import dataclasses

import pytest

from layerbench.errors import ConfigError
from layerbench.rungs.definitions import LADDER
from layerbench.served.served_cost import ServedCost
from layerbench.served.served_ladder import ladder_served
from layerbench.served.served_table import (
    format_served_table,
    served_document,
    served_from_document,
    syscall_line,
)
from tests.served_conditions import served_conditions
from tests.served_table_rows import caption, served_rows

COST = ServedCost(
    instructions_per_request={"server": 86_373.0, "application": 338_907.0},
    syscalls_per_request={
        "server": {"newfstatat": 12.0, "connect": 1.0, "futex": 0.04},
        "application": {"accept4": 1.0, "read": 4.65},
    },
    processes={"server": 4, "application": 2},
    conditions=served_conditions(windows_requests=[100, 300]),
)


def test_calls_most_first_those_under_a_twentieth_left_out() -> None:
    assert syscall_line(COST.syscalls_per_request["server"]) == "newfstatat 12.0, connect 1.0"
    assert syscall_line({}) == "none"


def test_the_table_read_back_from_its_document() -> None:
    costs = {"mod_wsgi-daemon": COST, "passenger": "not counted"}
    document = served_document(costs, {"mod_wsgi-daemon": 4_975.0})
    read_costs, anchors = served_from_document(document)
    assert read_costs == costs
    table = format_served_table(read_costs, anchors)
    assert caption(table).startswith("Served cost per request: windows of 100 and 300 requests")
    rows = served_rows(table)
    assert rows["mod_wsgi-daemon"]["server"].split()[:4] == ["server", "4", "86,373", "13.0"]
    # futex, whose count depends on timing, is listed but not in the column.
    assert rows["mod_wsgi-daemon"]["total"].split()[1:4] == ["6", "425,280", "18.6"]
    assert rows["mod_wsgi-daemon"]["in-process"].split()[1] == "4,975"
    assert rows["passenger"] == {"-": "not counted"}
    assert all(len(line) <= 120 for line in table.splitlines())


def test_bursts_shown_beside_the_total_not_in_it() -> None:
    bursty = dataclasses.replace(
        COST,
        burst_instructions_per_request={"server": 0.0, "application": 3_111.0},
        windows_counted=8,
        burst_windows=3,
    )
    read_costs, _ = served_from_document(served_document({"mod_wsgi-embedded": bursty}, {}))
    assert read_costs == {"mod_wsgi-embedded": bursty}
    rows = served_rows(format_served_table(read_costs))["mod_wsgi-embedded"]
    assert rows["total"].split()[2] == "425,280"
    assert rows["bursts"].split()[1] == "+3,111"
    assert "3 of 8 windows held a burst, not in the total" in rows["bursts"]
    assert "bursts" not in served_rows(format_served_table({"mod_wsgi-daemon": COST}))


def _refused(**changed: object) -> str:
    arguments: dict[str, object] = {
        "measure": "instructions",
        "apps": ("bare",),
        "rungs": LADDER,
        "server": "gunicorn",
        "book": {},
    }
    arguments.update(changed)
    with pytest.raises(ConfigError) as refused:
        ladder_served(**arguments)  # type: ignore[arg-type]
    return str(refused.value)


def test_ladder_measure_refused_where_it_cannot_count() -> None:
    assert "not with --apps" in _refused(apps=("bare", "flask"))
    assert "none is chosen" in _refused(rungs=tuple(r for r in LADDER if r.name == "static"))
    assert "--measure is one of" in _refused(measure="time")
