"""Every family of servers counted as its declaration says, under callgrind, on the string rung:
its processes in their roles, instructions per request counted in the application's role, every
answer 2xx (the windows' load refuses any other). All wide: the default suite counts gunicorn
end to end (test_served_cost.py), and each family here is a minute of windows under callgrind."""

from pathlib import Path

import pytest

from layerbench.served.served_cost import ServedCost, measure_served
from layerbench.served.served_counting import counting_for
from layerbench.served.served_windows import Windows
from tests.served_deployments import SHORTEST_S, served_deployment

# One round each: counting in rounds is the gunicorn test's (test_served_cost.py).
WINDOWS = Windows(20, 60, 10, rounds=1, max_rounds=1, min_seconds=SHORTEST_S)


def _count(adapter: str, root: Path, windows: Windows = WINDOWS) -> ServedCost:
    deployment, load = served_deployment(adapter, root)
    return measure_served(deployment, counting_for(adapter), load, root / "served", windows)


def _counted_in_the_application(cost: ServedCost) -> None:
    assert cost.instructions_per_request["application"] > 0
    # Its own reading, answering and writing of each request.
    assert cost.total_syscalls("application") >= 1


@pytest.mark.wide
def test_one_process_of_threads_counted_as_the_application(workdir: Path) -> None:
    cost = _count("waitress", workdir)
    assert cost.processes == {"application": 1}
    _counted_in_the_application(cost)


@pytest.mark.wide
@pytest.mark.parametrize(
    ("adapter", "processes"),
    [
        # The supervisor and multiprocessing's resource tracker; two spawned workers.
        ("uvicorn", {"server": 2, "application": 2}),
        ("hypercorn", {"server": 2, "application": 2}),
        ("gunicorn-uvicorn", {"server": 1, "application": 2}),
        ("granian", {"server": 1, "application": 2}),
        ("granian-asgi", {"server": 1, "application": 2}),
        ("cheroot", {"application": 1}),
        ("paste", {"application": 1}),
        ("daphne", {"application": 1}),
        # The master and two cluster workers running Rails.
        ("puma", {"server": 1, "application": 2}),
    ],
)
def test_each_family_counted_as_declared(
    workdir: Path, adapter: str, processes: dict[str, int]
) -> None:
    cost = _count(adapter, workdir)
    assert cost.processes == processes
    _counted_in_the_application(cost)


@pytest.mark.wide
def test_passenger_counted_in_its_sessions(workdir: Path) -> None:
    # Passenger's Ruby process was still requiring its files through the first requests (a
    # window of 200 after 20 made 54,301 calls, 31,959 of them failed lookups; one of 600
    # after it, 20,728): a longer warm-up.
    cost = _count("passenger", workdir, Windows(20, 60, 300, rounds=1, max_rounds=1))
    # Apache's parent and children in front; Passenger's watchdog and core; Ruby.
    assert cost.processes["front"] >= 2
    assert cost.processes["server"] >= 2
    assert cost.processes["application"] >= 1
    _counted_in_the_application(cost)
