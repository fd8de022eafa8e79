"""The Zope application (Zope 6 through paste.deploy, its objects in ZODB behind a ZEO server its
processes start) under gunicorn with one worker and under paste.httpserver: every rung it
answers verified by its definition, the page with the comments copied from the site's database
(SQLite, PostgreSQL, MariaDB); the FileStorage where ``$LAYERBENCH_ZODB_PATH`` says, or beside
the rung data. Under several processes at once (gunicorn's workers, mod_wsgi's daemon
processes, as seed 003 ran Zope) every process is a client of one ZEO server, every rung is
answered, and nothing is left running once the server stops."""

import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from layerbench.errors import MissingPackageError
from layerbench.lab.verify import verify_rung
from layerbench.proc.ports import free_port
from layerbench.rungs.applications import ZOPE
from layerbench.rungs.definitions import APPLICATION_RUNGS, CACHED_PAGE, PAGE
from layerbench.rungs.rung_data import PAGE_VIDEO_COMMENTS
from layerbench.rungs.sqlite_file import create_seeded_database
from layerbench.servers.adapters import ADAPTERS
from layerbench.servers.deployment import Deployment
from layerbench.servers.gunicorn import GunicornServer, GunicornSettings
from layerbench.servers.paste import PasteServer, PasteSettings
from layerbench_sites.app.app_config import DATABASE_URL_VARIABLE, ServiceUrls
from layerbench_sites.app.ladder_data import prepare_app_data, seed_site
from layerbench_sites.app.user_app import USER_APP_VARIABLE
from layerbench_sites.frameworks.zope_site.storage import DEFAULT_FILE_NAME, ZODB_PATH_VARIABLE
from layerbench_sites.frameworks.zope_site.zeo import SERVER_MODULE, zeo_address, zeo_log
from tests.adapter_plan import plan_for
from tests.app_server import Client
from tests.conftest import missing
from tests.datalayer_backends import empty_mariadb_database, empty_postgres_database
from tests.proc_scan import processes_mentioning

assert ZOPE.entry is not None and ZOPE.answers is not None
ENTRY = ZOPE.entry
RUNGS = [rung for rung in APPLICATION_RUNGS if rung.name in ZOPE.answers]
FORKED = "after the Zope application had opened its ZEO connection"
# The ZEO server's log line for each client that connects (the start probes never get so far).
CLIENT_CONNECTED = "received handshake"


def gunicorn(
    tmp_path: Path, db_path: Path, environment: dict[str, str], workers: int = 1
) -> GunicornServer:
    settings = GunicornSettings(workers=workers, worker_class="gthread", threads=4)
    environment = {USER_APP_VARIABLE: ENTRY, **environment}
    return GunicornServer(
        tmp_path / "gunicorn", free_port(), db_path, settings, app_environment=environment
    )


def verify_rungs(server: Deployment) -> None:
    """Every rung it answers, by its definition; the page shows the video's comments, copied
    from the site's database, and the cached page is that page."""
    assert {rung.name for rung in RUNGS} == {"string", "template", "orm", "page", "cached-page"}
    for rung in RUNGS:
        verify_rung(server.base_url, rung)
    port = urlsplit(server.base_url).port
    assert port is not None
    client = Client(port)
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


def zeo_clients(storage: Path) -> int:
    return zeo_log(storage).read_text().count(CLIENT_CONNECTED)


def zeo_servers(storage: Path) -> list[int]:
    return processes_mentioning(f"{SERVER_MODULE} -a {zeo_address(storage)} -f {storage} ")


def every_process_connected(storage: Path, processes: int, server: Deployment) -> None:
    """Each of the server's processes has started the application: a ZEO client apiece."""
    deadline = time.monotonic() + 60
    while zeo_clients(storage) < processes:
        server.check_alive()
        assert time.monotonic() < deadline, (zeo_clients(storage), zeo_log(storage).read_text())
        time.sleep(0.1)
    assert zeo_clients(storage) == processes


def verify_rungs_in_every_process(server: Deployment, storage: Path, processes: int) -> None:
    every_process_connected(storage, processes, server)
    for _ in range(processes):
        verify_rungs(server)
    assert len(zeo_servers(storage)) == 1


@pytest.mark.wide
def test_gunicorn_workers_share_the_storage_through_one_zeo_server(tmp_path: Path) -> None:
    data = prepare_app_data(tmp_path / "data")
    storage = data.db_path.parent / DEFAULT_FILE_NAME
    with gunicorn(tmp_path, data.db_path, data.environment, workers=3) as server:
        verify_rungs_in_every_process(server, storage, 3)
    assert processes_mentioning(str(tmp_path)) == []


def test_mod_wsgi_daemon_processes_share_the_storage_as_seed_003_ran_zope(
    workdir: Path,
) -> None:
    plan = plan_for(workdir, {"mod_wsgi-daemon": {"processes": "4", "threads": "1"}})
    data = prepare_app_data(workdir / "app")
    plan.db_path = data.db_path
    plan.app_environment = {USER_APP_VARIABLE: ENTRY, **data.environment}
    try:
        deployment = ADAPTERS["mod_wsgi-daemon"].build(plan)
    except MissingPackageError as error:
        missing(str(error))
        raise
    storage = plan.db_path.parent / DEFAULT_FILE_NAME
    with deployment:
        verify_rungs_in_every_process(deployment, storage, 4)
    assert processes_mentioning(str(workdir)) == []


FORKED_REQUEST = """
import os, sys
from wsgiref.util import setup_testing_defaults
from layerbench_sites.frameworks.zope_site.wsgi import application
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
    """And the ZEO server the script started ends once the script's process group has: it
    serves no one then (a script in no group of its own would keep it as long as its group)."""
    db_path = create_seeded_database(tmp_path)
    run = subprocess.run(
        [sys.executable, "-c", FORKED_REQUEST],
        env={"LAYERBENCH_DB_PATH": str(db_path), "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
        start_new_session=True,
    )
    parent, child = run.stdout.splitlines()
    assert parent == repr(("200 OK", b"Hello world!"))
    assert child.startswith("('500 Internal Server Error', b'this process was forked from pid ")
    assert FORKED in child
    deadline = time.monotonic() + 10
    while zeo_servers(tmp_path / DEFAULT_FILE_NAME):
        assert time.monotonic() < deadline, "the ZEO server outlived the script's group"
        time.sleep(0.1)
    assert processes_mentioning(str(tmp_path)) == []
