"""The Zope application (Zope 6 through paste.deploy, its objects in ZODB) under gunicorn with
one worker and under paste.httpserver: every rung it answers verified by its definition, the
page with the comments copied from the site's database (SQLite, PostgreSQL, MariaDB); the
FileStorage where ``$LAYERBENCH_ZODB_PATH`` says, or beside the rung data; and a second process
on the same FileStorage refused in one clear line, never sharing it."""

import subprocess
import sys
import time
from pathlib import Path

from layerbench.app.app_config import DATABASE_URL_VARIABLE, ServiceUrls
from layerbench.app.ladder_data import prepare_app_data, seed_site
from layerbench.app.user_app import USER_APP_VARIABLE
from layerbench.errors import ServerDiedError, ServerStartError
from layerbench.frameworks.applications import ZOPE
from layerbench.frameworks.zope_site.zope_storage import DEFAULT_FILE_NAME, ZODB_PATH_VARIABLE
from layerbench.lab.verify import verify_rung
from layerbench.proc.ports import free_port
from layerbench.rungs.definitions import APPLICATION_RUNGS, CACHED_PAGE, PAGE
from layerbench.rungs.rung_data import PAGE_VIDEO_COMMENTS
from layerbench.rungs.sqlite_file import create_seeded_database
from layerbench.servers.gunicorn import GunicornServer, GunicornSettings
from layerbench.servers.managed_server import ManagedServer
from layerbench.servers.paste import PasteServer, PasteSettings
from tests.app_server import Client
from tests.datalayer_backends import empty_mariadb_database, empty_postgres_database
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


def verify_rungs(server: ManagedServer) -> None:
    """Every rung it answers, by its definition; the page shows the video's comments, copied
    from the site's database, and the cached page is that page."""
    assert {rung.name for rung in RUNGS} == {"string", "template", "orm", "page", "cached-page"}
    for rung in RUNGS:
        verify_rung(server.base_url, rung)
    client = Client(server.port)
    page = client.request("GET", PAGE.path).body
    assert page.count(b'<div class="comment"') == PAGE_VIDEO_COMMENTS
    assert b"Comment number 10." in page
    for _ in range(2):
        assert client.request("GET", CACHED_PAGE.path).body == page
    assert client.request("GET", "/v/no-such-video").status == 404
    server.check_alive()


def test_gunicorn_serves_the_rungs_from_the_zodb_file_it_is_given(tmp_path: Path) -> None:
    data = prepare_app_data(tmp_path / "data")
    storage = tmp_path / "zodb" / "site.fs"
    storage.parent.mkdir()
    environment = {ZODB_PATH_VARIABLE: str(storage), **data.environment}
    with gunicorn(tmp_path, data.db_path, environment) as server:
        verify_rungs(server)
    assert storage.stat().st_size > 0
    assert not (data.db_path.parent / DEFAULT_FILE_NAME).exists()


def test_paste_serves_the_rungs_from_a_zodb_file_beside_the_rung_data(tmp_path: Path) -> None:
    data = prepare_app_data(tmp_path / "data")
    environment = {USER_APP_VARIABLE: ENTRY, **data.environment}
    server = PasteServer(
        tmp_path / "paste",
        free_port(),
        data.db_path,
        PasteSettings(threads=4),
        app_environment=environment,
    )
    with server:
        verify_rungs(server)
    assert (data.db_path.parent / DEFAULT_FILE_NAME).stat().st_size > 0


def test_the_page_is_copied_from_the_site_on_postgres(tmp_path: Path, postgres_url: str) -> None:
    url, drop = empty_postgres_database(postgres_url)
    try:
        data = prepare_app_data(tmp_path / "data", ServiceUrls(postgres=url))
        with gunicorn(tmp_path, data.db_path, data.environment) as server:
            verify_rungs(server)
    finally:
        drop()


def test_the_page_is_copied_from_the_site_on_mariadb(tmp_path: Path, mariadb_url: str) -> None:
    url, drop = empty_mariadb_database(mariadb_url)
    try:
        seed_site(url)
        environment = {DATABASE_URL_VARIABLE: url}
        with gunicorn(tmp_path, create_seeded_database(tmp_path), environment) as server:
            verify_rungs(server)
    finally:
        drop()


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
