"""The Zope application (Zope 6 through paste.deploy, its rows in ZODB) under gunicorn with one
worker and under paste.httpserver: every rung it answers verified by its definition; the
FileStorage where ``$LAYERBENCH_ZODB_PATH`` says, or beside the rung data; and a second process
on the same FileStorage refused in one clear line, never sharing it."""

import subprocess
import sys
import time
from pathlib import Path

from layerbench.app.user_app import USER_APP_VARIABLE
from layerbench.errors import ServerDiedError, ServerStartError
from layerbench.frameworks.applications import ZOPE
from layerbench.frameworks.zope_site.zope_storage import DEFAULT_FILE_NAME, ZODB_PATH_VARIABLE
from layerbench.lab.verify import verify_rung
from layerbench.proc.ports import free_port
from layerbench.rungs.definitions import APPLICATION_RUNGS
from layerbench.rungs.sqlite_file import create_seeded_database
from layerbench.servers.gunicorn import GunicornServer, GunicornSettings
from layerbench.servers.paste import PasteServer, PasteSettings
from layerbench.servers.python_app_server import PythonAppServer
from tests.proc_scan import processes_mentioning

assert ZOPE.entry is not None and ZOPE.answers is not None
ENTRY = ZOPE.entry
RUNGS = [rung for rung in APPLICATION_RUNGS if rung.name in ZOPE.answers]
IN_ANOTHER_PROCESS = "is open in another process"


def gunicorn(
    tmp_path: Path, db_path: Path, environment: dict[str, str], workers: int = 1
) -> GunicornServer:
    settings = GunicornSettings(workers=workers, worker_class="gthread", threads=4)
    environment = {USER_APP_VARIABLE: ENTRY, **environment}
    return GunicornServer(
        tmp_path / "gunicorn", free_port(), db_path, settings, app_environment=environment
    )


def paste(tmp_path: Path, db_path: Path) -> PasteServer:
    return PasteServer(
        tmp_path / "paste",
        free_port(),
        db_path,
        PasteSettings(threads=4),
        app_environment={USER_APP_VARIABLE: ENTRY},
    )


def verify_rungs(server: PythonAppServer[object]) -> None:
    assert {rung.name for rung in RUNGS} == {"string", "template", "orm"}
    for rung in RUNGS:
        verify_rung(server.base_url, rung)
    server.check_alive()


def test_gunicorn_serves_the_rungs_from_the_zodb_file_it_is_given(tmp_path: Path) -> None:
    db_path = create_seeded_database(tmp_path)
    storage = tmp_path / "zodb" / "site.fs"
    storage.parent.mkdir()
    with gunicorn(tmp_path, db_path, {ZODB_PATH_VARIABLE: str(storage)}) as server:
        verify_rungs(server)
    assert storage.stat().st_size > 0
    assert not (tmp_path / DEFAULT_FILE_NAME).exists()


def test_paste_serves_the_rungs_from_a_zodb_file_beside_the_rung_data(tmp_path: Path) -> None:
    db_path = create_seeded_database(tmp_path)
    with paste(tmp_path, db_path) as server:
        verify_rungs(server)
    assert (tmp_path / DEFAULT_FILE_NAME).stat().st_size > 0


def test_a_second_worker_process_is_refused_the_file_storage(tmp_path: Path) -> None:
    server = gunicorn(tmp_path, create_seeded_database(tmp_path), {}, workers=2)
    assert IN_ANOTHER_PROCESS in log_of_failure(server)
    assert processes_mentioning(str(tmp_path)) == []


def log_of_failure(server: GunicornServer) -> str:
    """The log of a server that fails to start, or dies once started (one worker may answer
    before the other has failed: gunicorn then halts), within 20 s."""
    try:
        with server:
            deadline = time.monotonic() + 20
            while time.monotonic() < deadline:
                server.check_alive()
                time.sleep(0.1)
    except (ServerStartError, ServerDiedError) as failure:
        return str(failure)
    raise AssertionError("gunicorn ran two workers on one FileStorage")


FORKED_REQUEST = """
import os, sys
from wsgiref.util import setup_testing_defaults
from layerbench.frameworks.zope_site.zope_wsgi import application
def ask():
    environ = {"PATH_INFO": "/ladder/orm"}
    setup_testing_defaults(environ)
    statuses = []
    body = b"".join(application(environ, lambda status, headers: statuses.append(status)))
    return statuses[0], body
print(ask(), flush=True)
child = os.fork()
if child == 0:
    print(ask(), flush=True)
    os._exit(0)
os.waitpid(child, 0)
"""


def test_a_process_forked_after_the_storage_opened_answers_500_saying_why(
    tmp_path: Path,
) -> None:
    db_path = create_seeded_database(tmp_path)
    run = subprocess.run(
        [sys.executable, "-c", FORKED_REQUEST],
        env={"LAYERBENCH_DB_PATH": str(db_path), "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    parent, child = run.stdout.splitlines()
    assert parent == repr(("200 OK", b"Hello world!"))
    assert child.startswith("('500 Internal Server Error', b'the ZODB FileStorage ")
    assert IN_ANOTHER_PROCESS in child
