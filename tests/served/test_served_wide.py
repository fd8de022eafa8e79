"""The served cost against what is known: a worker made to do a calibrated amount of extra work
per request (a loop, counted in-process by ``layerbench cost``'s machinery) shows that much more
in its served instructions; idle time in both windows leaves the per-request figure as it is;
and so does work a worker does per second on a timer thread, whether the windows last 5 s or
20 s. Each runs gunicorn under callgrind several times: wide."""

from pathlib import Path

import pytest

from layerbench.served.served_cost import ServedCost, measure_served
from layerbench.served.served_counting import counting_for
from layerbench.served.served_windows import Windows
from layerbench.site_contract import USER_APP_PATH_VARIABLE, USER_APP_VARIABLE
from layerbench.smoke.smoke_cost import measure_urls
from tests.served_deployments import served_deployment

pytestmark = pytest.mark.wide

LOOP_APP = """
import itertools

EXTRA = {extra}


def application(environ, start_response):
    for _ in itertools.repeat(None, EXTRA):
        pass
    start_response("200 OK", [("Content-Type", "text/plain"), ("Content-Length", "2")])
    return [b"ok"]
"""
EXTRA_ITERATIONS = 50_000
HEARTBEAT_APP = """
import itertools
import threading
import time

BEAT_ITERATIONS = {iterations}
BEAT_S = 0.25


def beat():
    while True:
        time.sleep(BEAT_S)
        for _ in itertools.repeat(None, BEAT_ITERATIONS):
            pass


threading.Thread(target=beat, daemon=True).start()


def application(environ, start_response):
    start_response("200 OK", [("Content-Type", "text/plain"), ("Content-Length", "2")])
    return [b"ok"]
"""
# About 200,000 instructions a second under callgrind, in fires of 50,000: little enough that
# the worker's serving hardly delays a fire (a thread of the serving process: a heartbeat of
# 1.7 million a second was slowed by the serving, 10 of 12 windows differing by more than 1 %).
BEAT_ITERATIONS = 600
FAST, SLOW = "pace", "slow"
SLOW_S = 20.0
ONE_WORKER = {"gunicorn": {"workers": "1"}}


def _served(root: Path, windows: Windows, app: dict[str, str] | None = None) -> ServedCost:
    root.mkdir(mode=0o711)
    path = "/" if app else "/ladder/string"
    deployment, load = served_deployment("gunicorn", root, ONE_WORKER, app, path)
    return measure_served(deployment, counting_for("gunicorn"), load, root / "served", windows)


def test_calibrated_extra_work_shows_in_the_served_count(workdir: Path) -> None:
    for name, extra in (("loop_none", 0), ("loop_extra", EXTRA_ITERATIONS)):
        (workdir / f"{name}.py").write_text(LOOP_APP.format(extra=extra))
    in_process = {
        name: measure_urls(f"{name}:application", ("/",), (str(workdir),), repeats=1)
        for name in ("loop_none", "loop_extra")
    }
    extra_in_process = (
        in_process["loop_extra"].instructions["/"][0] - in_process["loop_none"].instructions["/"][0]
    )
    windows = Windows(20, 60, 10)
    served = {
        name: _served(
            workdir / name,
            windows,
            {USER_APP_VARIABLE: f"{name}:application", USER_APP_PATH_VARIABLE: str(workdir)},
        ).instructions_per_request["application"]
        for name in ("loop_none", "loop_extra")
    }
    extra_served = served["loop_extra"] - served["loop_none"]
    # The loop is most of what the costlier worker does: a count that missed it would fail.
    assert extra_in_process > served["loop_none"]
    # Counted exactly both ways; the worker's own work is the same around either application.
    assert extra_served == pytest.approx(extra_in_process, abs=0.01 * served["loop_none"])


def test_idle_time_in_both_windows_cancels(workdir: Path) -> None:
    busy = _served(workdir / "busy", Windows(20, 60, 10))
    idle = _served(workdir / "idle", Windows(20, 60, 10, idle_s=5.0))
    assert idle.total_instructions == pytest.approx(busy.total_instructions, rel=0.01)
    worker = busy.instructions_per_request["application"]
    assert idle.instructions_per_request["application"] == pytest.approx(worker, rel=0.01)


def test_work_per_second_does_not_change_the_per_request_figure(workdir: Path) -> None:
    (workdir / "heartbeat.py").write_text(HEARTBEAT_APP.format(iterations=BEAT_ITERATIONS))
    app = {USER_APP_VARIABLE: "heartbeat:application", USER_APP_PATH_VARIABLE: str(workdir)}
    # Windows as long as the pace makes them (some 5 s), and at least 20 s: the heartbeat's
    # work in each window differs by 15 s of it.
    paces = {FAST: Windows(50, 150, 10), SLOW: Windows(50, 150, 10, min_seconds=SLOW_S)}
    counted = {name: _served(workdir / name, windows, app) for name, windows in paces.items()}
    for name, cost in counted.items():
        print(name, cost)  # shown when it fails
    worker = {m: cost.instructions_per_request["application"] for m, cost in counted.items()}
    within = {m: cost.instruction_uncertainty["application"] for m, cost in counted.items()}
    assert worker[SLOW] == pytest.approx(worker[FAST], abs=within[SLOW] + within[FAST])
    # The heartbeat was counted while idle, and would have moved the figure far more than that
    # had it not cancelled: its work over the extra seconds of the longer windows, per request.
    rate = counted[SLOW].idle_instructions_per_second["application"]
    seconds = {name: cost.window_seconds[1] for name, cost in counted.items()}
    moved = rate * (seconds[SLOW] - seconds[FAST]) / (150 - 50)
    assert moved > 2 * (within[FAST] + within[SLOW])
    # Its work per request is still the worker's own, not the heartbeat's.
    assert within[SLOW] < worker[SLOW]
