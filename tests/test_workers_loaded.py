"""A multi-process server is ready only once every worker process has loaded the application
(issue 21's follow-up): mod_wsgi's daemon processes accepted requests while still importing it,
so the first cells after a start measured the start (Zope's c=1 cell read 1 req/s)."""

import http.client
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from layerbench.proc.ports import LOOPBACK, free_port
from layerbench.servers.adapters import ServerPlan, find_adapter
from layerbench.servers.apache import ApacheSettings
from tests.slow_app import ANSWER_WITHIN_S, slow_app_environment

PROCESSES = 4


def _timed_get(port: int) -> tuple[float, str]:
    started = time.monotonic()
    connection = http.client.HTTPConnection(LOOPBACK, port, timeout=30)
    try:
        connection.request("GET", "/pid")
        body = connection.getresponse().read().decode()
    finally:
        connection.close()
    return time.monotonic() - started, body


def test_mod_wsgi_daemon_is_ready_once_every_process_has_imported_the_application(
    workdir: Path, require_program: Callable[[str, str], Path]
) -> None:
    environment = slow_app_environment(workdir, require_program)
    book = {"mod_wsgi-daemon": {"processes": str(PROCESSES), "threads": "1"}}
    plan = ServerPlan(
        workdir / "server",
        free_port(),
        workdir / "data" / "app.sqlite3",
        {},
        book,
        app_environment=environment,
    )
    (workdir / "data").mkdir()
    deployment = find_adapter("mod_wsgi-daemon").build(plan)
    with deployment, ThreadPoolExecutor(PROCESSES) as pool:
        # As many requests at once as there are processes of one thread: each one's own.
        answers = list(pool.map(_timed_get, [plan.port] * PROCESSES))
    slow = [round(seconds, 2) for seconds, _ in answers if seconds > ANSWER_WITHIN_S]
    assert not slow, f"right after the start, requests took {slow} s: a process was importing"
    assert len({pid for _, pid in answers}) == PROCESSES, answers


def test_apache_waits_for_the_children_it_keeps_from_its_start() -> None:
    assert ApacheSettings().children_at_start() == 2
    assert ApacheSettings(start_servers=8).children_at_start() == 3  # 75 spare threads / 25
    assert ApacheSettings(mpm="prefork", start_servers=20).children_at_start() == 10
    assert ApacheSettings(start_servers=4, max_request_workers=50).children_at_start() == 2
