"""A role whose figure is within its uncertainty of zero, in the served table: shown as 0 with
its uncertainty and what it did per second while idle, and left out of the total."""

from layerbench.served.served_cost import ServedCost
from layerbench.served.served_table import (
    format_served_table,
    served_document,
    served_from_document,
)
from tests.served_conditions import served_conditions
from tests.served_table_rows import caption, served_rows

# gunicorn's arbiter and its two sync workers (string rung): the arbiter's -12 per request is
# one timer fire more or less over 400 requests.
COST = ServedCost(
    instructions_per_request={"server": -12.0, "application": 480_574.0},
    syscalls_per_request={
        "server": {"select": 0.01, "newfstatat": 0.02},
        "application": {"accept4": 1.0, "recvfrom": 1.0, "sendto": 1.0, "close": 1.0},
    },
    processes={"server": 1, "application": 2},
    conditions=served_conditions(),
    instruction_uncertainty={"server": 130.0, "application": 1_900.0},
    syscall_uncertainty={"server": 0.05, "application": 0.01},
    idle_instructions_per_second={"server": 52_000.0, "application": 3_000.0},
    idle_syscalls_per_second={"server": {"select": 1.0, "newfstatat": 2.0}, "application": {}},
    window_seconds=[21.5, 21.6],
)


def test_a_role_within_its_uncertainty_of_zero_is_shown_as_zero() -> None:
    assert COST.within_uncertainty("server")
    assert not COST.within_uncertainty("application")
    assert COST.total_instructions == 480_574.0
    costs, anchors = served_from_document(served_document({"gunicorn": COST}, {}))
    assert costs == {"gunicorn": COST}
    table = format_served_table(costs, anchors)
    assert "within its uncertainty" in caption(table)
    rows = served_rows(table)["gunicorn"]
    assert rows["server"].split()[:7] == ["server", "1", "0", "±130", "52,000", "0.0", "0"]
    assert rows["server"].endswith("0 ± 0.05 per request; idle: newfstatat 2.0/s, select 1.0/s")
    assert rows["application"].split()[1:6] == ["2", "480,574", "±1,900", "3,000", "4.0"]
    assert rows["total"].split()[1:6] == ["3", "480,574", "±2,030", "55,000", "4.0"]


def test_a_document_without_uncertainties_shows_every_figure() -> None:
    old = ServedCost(
        instructions_per_request={"server": 366.0, "application": 480_574.0},
        syscalls_per_request={"server": {}, "application": {}},
    )
    assert old.total_instructions == 480_940.0
    assert not old.within_uncertainty("server")
