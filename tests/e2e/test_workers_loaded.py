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
from layerbench.servers.loaded_workers import LOADED_DIR_NAME
from tests.proc_scan import session_members
from tests.slow_app import slow_app_environment

PROCESSES = 4


def command_line(pid: int) -> bytes:
    """Its argv as mod_wsgi's display-name sets it, "(wsgi:GROUP)" for a daemon process."""
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return b""


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
    with deployment:
        # What readiness guarantees, read from /proc and the announcements at that moment (how
        # long an answer takes is the machine's: on a loaded one, more than an import's 3 s).
        (session,) = deployment.roles()["server"]
        members = session_members({session})
        daemons = {pid for pid, _ in members if command_line(pid).startswith(b"(wsgi:")}
        loaded = {int(entry.name) for entry in (plan.workdir / LOADED_DIR_NAME).iterdir()}
        with ThreadPoolExecutor(PROCESSES) as pool:
            answers = list(pool.map(_timed_get, [plan.port] * PROCESSES))
    assert len(daemons) == PROCESSES, members
    importing = sorted(daemons - loaded)
    assert not importing, f"ready with daemon processes {importing} still importing"
    assert {int(pid) for _, pid in answers} <= daemons & loaded, answers


def test_apache_waits_for_the_children_it_keeps_from_its_start() -> None:
    assert ApacheSettings().children_at_start() == 2
    assert ApacheSettings(start_servers=8).children_at_start() == 3  # 75 spare threads / 25
    assert ApacheSettings(mpm="prefork", start_servers=20).children_at_start() == 10
    assert ApacheSettings(start_servers=4, max_request_workers=50).children_at_start() == 2
