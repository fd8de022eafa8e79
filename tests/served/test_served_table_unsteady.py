"""A role whose instructions moved from window to window with something other than its requests,
in the served table: its figure shown as unsteady, why on a row of its own, and left out of the
total; the other roles' figures kept."""

from layerbench.served.served_cost import ServedCost
from layerbench.served.served_table import (
    format_served_table,
    served_document,
    served_from_document,
)
from tests.served_conditions import served_conditions
from tests.served_table_rows import served_rows

WHY = "10 of its 12 windows held a burst (its windows of one size differed by up to 27.4%)"
# Passenger (pool_size=1, string rung): Apache in front, the core, the Ruby process.
COST = ServedCost(
    instructions_per_request={"front": 95_310.0, "server": -80_869.0, "application": 2_046_558.0},
    syscalls_per_request={"front": {}, "server": {}, "application": {}},
    processes={"front": 3, "server": 6, "application": 1},
    conditions=served_conditions(),
    instruction_uncertainty={"front": 40.0, "server": 5_651.0, "application": 6.0},
    idle_instructions_per_second={"front": 900.0, "server": 2_100_000.0, "application": 0.0},
    unsteady_roles={"server": WHY},
)


def test_an_unsteady_role_is_shown_as_such_and_left_out_of_the_total() -> None:
    assert COST.total_instructions == 95_310.0 + 2_046_558.0
    costs, anchors = served_from_document(served_document({"passenger": COST}, {}))
    assert costs == {"passenger": COST}
    rows = served_rows(format_served_table(costs, anchors))["passenger"]
    assert rows["server"].split()[:4] == ["server", "6", "unsteady", "2,100,000"]
    assert rows["application"].split()[2:4] == ["2,046,558", "±6"]
    assert rows["total"].split()[2:4] == ["2,141,868", "±46"]
    assert " ".join(rows["unsteady"].split()) == f"unsteady server: {WHY}; not in the total"


def test_a_document_without_unsteady_roles_reads_back_with_none() -> None:
    document = served_document({"passenger": COST}, {})
    costs = document["costs"]
    assert isinstance(costs, dict)
    cost = costs["passenger"]
    assert isinstance(cost, dict)
    del cost["unsteady_roles"]
    read, _ = served_from_document(document)
    assert isinstance(read["passenger"], ServedCost)
    assert read["passenger"].unsteady_roles == {}
