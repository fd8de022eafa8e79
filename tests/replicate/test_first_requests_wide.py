"""The first requests after a start, counted (replicate/served_counts.py): an application that
does a calibrated amount of work at its first request only (a lazy import, made measurable: a
loop counted in-process by ``layerbench cost``'s machinery) costs that much more over its first
N requests, divided by N, than the same application without it. gunicorn, started natively and
under callgrind for each application: wide."""

from pathlib import Path

import pytest

from layerbench.replicate.second_run import SETTLE_BATCH, SecondRun
from layerbench.replicate.served_counts import FirstRequests, count_first_requests
from layerbench.replicate.settled_counts import count_settled
from layerbench.rungs.definitions import LADDER
from layerbench.served.served_columns import CountedTarget
from layerbench.served.served_counting import counting_for
from layerbench.site_contract import USER_APP_PATH_VARIABLE, USER_APP_VARIABLE
from layerbench.smoke.smoke_cost import measure_urls
from tests.served_deployments import served_deployment

pytestmark = pytest.mark.wide

FIRST_HIT_APP = """
import itertools

EXTRA = {extra}
FIRST = {first}
_served = False


def application(environ, start_response):
    global _served
    if not (FIRST and _served):
        for _ in itertools.repeat(None, EXTRA):
            pass
    _served = True
    start_response("200 OK", [("Content-Type", "text/plain"), ("Content-Length", "2")])
    return [b"ok"]
"""
EXTRA_ITERATIONS = 200_000
REQUESTS = 20
ONE_WORKER = {"gunicorn": {"workers": "1"}}


def test_a_first_hit_cost_shows_over_the_first_requests(workdir: Path) -> None:
    apps = {
        "every_none": (0, False),  # in-process calibration: the loop at every request, or none
        "every_loop": (EXTRA_ITERATIONS, False),
        "first_none": (0, True),
        "first_loop": (EXTRA_ITERATIONS, True),
    }
    for name, (extra, once) in apps.items():
        (workdir / f"{name}.py").write_text(FIRST_HIT_APP.format(extra=extra, first=once))
    in_process = {
        name: measure_urls(f"{name}:application", ("/",), (str(workdir),), repeats=1)
        for name in ("every_none", "every_loop")
    }
    loop = (
        in_process["every_loop"].instructions["/"][0]
        - in_process["every_none"].instructions["/"][0]
    )
    first: dict[str, FirstRequests] = {}
    for name in ("first_none", "first_loop"):
        root = workdir / name
        root.mkdir(mode=0o711)
        environment = {
            USER_APP_VARIABLE: f"{name}:application",
            USER_APP_PATH_VARIABLE: str(workdir),
        }
        deployment, load = served_deployment("gunicorn", root, ONE_WORKER, environment, "/")
        first[name] = count_first_requests(
            deployment, counting_for("gunicorn"), load, root / "first", REQUESTS
        )
    added = (
        first["first_loop"].instructions_per_request - first["first_none"].instructions_per_request
    )
    # The loop, once, is most of what the first requests cost: a count that missed it would fail.
    assert loop / REQUESTS > first["first_none"].instructions_per_request
    assert added == pytest.approx(loop / REQUESTS, rel=0.02)
    assert first["first_none"].processes >= 2  # the arbiter and its worker
    assert sum(first["first_none"].syscalls_per_request.values()) > 0


def test_the_second_run_leaves_the_first_hit_out(workdir: Path) -> None:
    """After the first requests, the second run on the same start
    (layerbench/replicate/second_run.py): an application whose first request does the
    calibrated loop costs, warm, what the same application without it costs (within the
    windows' 2 % agreement), while its first requests carry the loop."""
    second: dict[str, FirstRequests] = {}
    for name, extra in (("plain", 0), ("first_hit", EXTRA_ITERATIONS)):
        (workdir / f"{name}.py").write_text(FIRST_HIT_APP.format(extra=extra, first=True))
        root = workdir / name
        root.mkdir(mode=0o711)
        environment = {
            USER_APP_VARIABLE: f"{name}:application",
            USER_APP_PATH_VARIABLE: str(workdir),
        }
        deployment, load = served_deployment("gunicorn", root, ONE_WORKER, environment, "/")
        second[name] = count_first_requests(
            deployment, counting_for("gunicorn"), load, root / "first", REQUESTS, second_run=1
        )
    runs = {name: count.second_run for name, count in second.items()}
    plain, first_hit = runs["plain"], runs["first_hit"]
    assert isinstance(plain, SecondRun), plain
    assert isinstance(first_hit, SecondRun), first_hit
    # The loop, once, costs more than the first requests' own work: in the first run, not the
    # second.
    assert second["first_hit"].instructions_per_request > 2 * plain.instructions_per_request
    assert first_hit.instructions_per_request == pytest.approx(
        plain.instructions_per_request, rel=0.02
    )
    assert plain.windows >= 2 and plain.settle_requests >= SETTLE_BATCH
    assert sum(plain.syscalls_per_request.values()) > 0


def test_a_settled_count_sees_the_work_of_every_request(workdir: Path) -> None:
    """A settled count (layerbench/replicate/settled_counts.py) of an application that runs the
    calibrated loop at every request costs the loop more per request than the same application
    without it."""
    in_process = {}
    settled = {}
    string = next(rung for rung in LADDER if rung.name == "string")
    for name, extra in (("plain", 0), ("looped", EXTRA_ITERATIONS)):
        (workdir / f"{name}.py").write_text(FIRST_HIT_APP.format(extra=extra, first=False))
        in_process[name] = measure_urls(f"{name}:application", ("/",), (str(workdir),), repeats=1)
        root = workdir / name
        root.mkdir(mode=0o711)
        environment = {
            USER_APP_VARIABLE: f"{name}:application",
            USER_APP_PATH_VARIABLE: str(workdir),
        }
        deployment, _ = served_deployment("gunicorn", root, ONE_WORKER, environment, "/")
        target = CountedTarget(name, "gunicorn", deployment, string, "bare")
        settled[name] = count_settled(target, root / "settled", 1, None)
    loop = in_process["looped"].instructions["/"][0] - in_process["plain"].instructions["/"][0]
    added = settled["looped"].instructions_per_request - settled["plain"].instructions_per_request
    assert added == pytest.approx(loop, rel=0.02)
    assert settled["plain"].windows >= 2 and settled["plain"].processes >= 2
