"""``ladder --full --measure instructions`` (layerbench/served/served_ladder.py): the rungs on
real services are counted served, the services started again beside the counted server and
never counted themselves."""

import pytest

from layerbench.rungs.definitions import FULL_LADDER
from layerbench.served.served_cost import ServedCost
from layerbench.served.served_ladder import (
    LadderServed,
    ladder_served,
    run_ladder_served,
    services_note,
)
from layerbench.served.served_roles import ROLE_ORDER
from layerbench.served.served_windows import Windows


def test_the_full_ladder_is_counted_with_the_services_its_rungs_need() -> None:
    plan = ladder_served(
        measure="instructions",
        apps=("bare",),
        rungs=FULL_LADDER,
        server="gunicorn",
        book={},
        services=("mariadb", "postgres"),
    )
    assert plan.services == ("mariadb", "postgres")
    names = {rung.name for rung in plan.rungs}
    assert {"string", "mariadb-raw", "orm-mariadb"} <= names
    assert "static" not in names  # not the application's


def test_the_services_left_out_of_the_count_are_said_under_the_table() -> None:
    note = services_note({"costs": {}, "services_not_counted": ["mariadb"]})
    assert note.startswith("only the stack's processes are counted: not mariadb")
    assert services_note({"costs": {}}) == ""


@pytest.mark.wide
def test_a_mariadb_rung_is_counted_and_mariadb_is_not() -> None:
    """gunicorn and MariaDB, started as the project starts them: the raw driver's rung costs
    the worker more than the string rung (it talks to the database), and only the stack's roles
    are counted (no database role among them)."""
    rungs = tuple(rung for rung in FULL_LADDER if rung.name in {"string", "mariadb-raw"})
    plan = LadderServed(
        "gunicorn",
        "bare",
        rungs,
        {"gunicorn": {"workers": "1"}},
        "instructions",
        Windows(short=20, long=60, warmup=5),
        services=("mariadb",),
    )
    costs = run_ladder_served(plan, None, None)
    string, raw = costs["string"], costs["mariadb-raw"]
    assert isinstance(string, ServedCost), string
    assert isinstance(raw, ServedCost), raw
    assert raw.total_instructions > string.total_instructions
    for cost in (string, raw):
        assert set(cost.instructions_per_request) <= set(ROLE_ORDER)
        assert sum(cost.processes.values()) == 2  # the arbiter and its one worker
