"""A multi-process server is ready only once every worker process has loaded the application
(issue 21's follow-up): mod_wsgi's daemon processes accepted requests while still importing it,
so the first cells after a start measured the start (Zope's c=1 cell read 1 req/s)."""

import http.client
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from layerbench.app.user_app import USER_APP_PATH_VARIABLE, USER_APP_VARIABLE
from layerbench.proc.ports import LOOPBACK, free_port
from layerbench.servers.adapters import ServerPlan, find_adapter
from layerbench.servers.apache import MODULES_DIR, ApacheSettings
from layerbench.servers.mod_wsgi import APT_PACKAGE as MOD_WSGI_PACKAGE
from tests.conftest import missing

IMPORT_S = 3.0
PROCESSES = 4
# Each request holds its process (one thread) this long, so that requests sent at once each
# reach a process of their own.
ANSWER_S = 0.5
# A loaded process's answer on a loaded machine, far under the import's IMPORT_S.
ANSWER_WITHIN_S = ANSWER_S + 1.5

SLOW_APP = f'''\
"""An application whose first process imports it at once, and every other one in {IMPORT_S} s
(as Zope's first process makes the database and the others load after); it answers its process
id, after {ANSWER_S} s."""

import os
import time

try:
    os.close(os.open(os.path.join(os.path.dirname(__file__), "first"), os.O_CREAT | os.O_EXCL))
except FileExistsError:
    time.sleep({IMPORT_S})


def application(environ, start_response):
    time.sleep({ANSWER_S})
    body = str(os.getpid()).encode()
    start_response("200 OK", [("Content-Type", "text/plain")])
    return [body]
'''


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
    require_program("apache2", "apache2")
    if not (MODULES_DIR / "mod_wsgi.so").exists():
        missing(f"mod_wsgi is not installed (apt install {MOD_WSGI_PACKAGE})")
    app_dir = workdir / "slow_app"
    app_dir.mkdir()
    app_dir.chmod(0o777)  # the server's account claims "first" in it
    (app_dir / "slow_app.py").write_text(SLOW_APP)
    (app_dir / "slow_app.py").chmod(0o644)
    environment = {
        USER_APP_VARIABLE: "slow_app:application",
        USER_APP_PATH_VARIABLE: str(app_dir),
    }
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
