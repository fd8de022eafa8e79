"""Every framework application that implements the site (Django, Flask, Pyramid: those whose
rungs include the write) under gunicorn, on each of the three layouts: SQLite (in-process page
cache, one worker), PostgreSQL (memcached, two workers) and MariaDB (Redis, two workers, the
orm rung on MariaDB as the full ladder's ORM URL may name). Each rung it answers is verified by
its definition, the video page lists its comments in order, a comment written is the rows the
project's repository writes (short id, the ids registry, the audit history with its actor), and
the page cache is swept after the write's commit (the cached page shows the comment on every
worker). On SQLite, the bad requests' answers (404, 422, 400, 415) too."""

import secrets
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest

from layerbench.proc.ports import free_port
from layerbench.rungs.applications import APPLICATIONS, Application
from layerbench.rungs.definitions import APPLICATION_RUNGS, PAGE, Rung
from layerbench.rungs.rung_data import PAGE_VIDEO_COMMENTS, WRITE_VIDEO_PRETTYID
from layerbench.rungs.seeding import seed_mariadb, seed_postgres
from layerbench.rungs.sqlite_file import create_seeded_database
from layerbench.servers.gunicorn import GunicornServer, GunicornSettings
from layerbench.site_contract import USER_APP_VARIABLE
from layerbench_sites.app.app_config import (
    CACHE_URL_VARIABLE,
    DATABASE_URL_VARIABLE,
    ORM_URL_VARIABLE,
    SECRET_VARIABLE,
    ServiceUrls,
)
from layerbench_sites.app.ladder_data import prepare_app_data, seed_site
from layerbench_sites.datalayer.open_repository import open_repository
from layerbench_sites.ids.codec import decode
from tests.app_server import Client, Reply
from tests.datalayer_backends import empty_mariadb_database, empty_postgres_database

# The WSGI applications that implement the site: the comment write is what needs its SQL rows
# (the ASGI ones are tests/sites/frameworks/test_asgi_sites.py's).
SITE_APPLICATIONS = [
    app
    for app in APPLICATIONS.values()
    if app.interface == "wsgi" and app.answers is not None and "write" in app.answers
]
PAGE_PATH = f"/v/{WRITE_VIDEO_PRETTYID}"
COMMENTS = f"/videos/{WRITE_VIDEO_PRETTYID}/comments"
# Reads of the page before and after the write: enough that every worker has it cached, then
# that none of them serves it from before the write.
PAGE_READS = 4
UPSTREAM_KIND = "upstream"


@dataclass(frozen=True)
class SiteData:
    db_path: Path  # the rung data's SQLite file
    environment: dict[str, str]
    database_url: str  # the site's database, as the repository opens it
    workers: int


def sqlite_layout(tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[SiteData]:
    data = prepare_app_data(tmp_path / "data")
    yield SiteData(data.db_path, data.environment, data.environment[DATABASE_URL_VARIABLE], 1)


def postgres_memcached_layout(tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[SiteData]:
    url, drop = empty_postgres_database(request.getfixturevalue("postgres_url"))
    try:
        seed_postgres(url)
        services = ServiceUrls(postgres=url, memcached=request.getfixturevalue("memcached_url"))
        data = prepare_app_data(tmp_path / "data", services)
        yield SiteData(data.db_path, data.environment, url, 2)
    finally:
        drop()


def mariadb_redis_layout(tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[SiteData]:
    url, drop = empty_mariadb_database(request.getfixturevalue("mariadb_url"))
    try:
        seed_mariadb(url)
        seed_site(url)
        environment = {
            DATABASE_URL_VARIABLE: url,
            ORM_URL_VARIABLE: url,
            CACHE_URL_VARIABLE: request.getfixturevalue("redis_url"),
            SECRET_VARIABLE: secrets.token_hex(32),
        }
        yield SiteData(create_seeded_database(tmp_path), environment, url, 2)
    finally:
        drop()


Layout = Callable[[Path, pytest.FixtureRequest], AbstractContextManager[SiteData]]
LAYOUTS: dict[str, Layout] = {
    "sqlite": contextmanager(sqlite_layout),
    "postgres-memcached": contextmanager(postgres_memcached_layout),
    "mariadb-redis": contextmanager(mariadb_redis_layout),
}


@contextmanager
def framework_site(app: Application, tmp_path: Path, data: SiteData) -> Iterator[Client]:
    assert app.entry is not None
    server = GunicornServer(
        tmp_path / "gunicorn",
        free_port(),
        data.db_path,
        GunicornSettings(workers=data.workers, worker_class="gthread", threads=4),
        app_environment={USER_APP_VARIABLE: app.entry, **data.environment},
    )
    with server:
        yield Client(server.port)
        server.check_alive()


def ask(client: Client, rung: Rung) -> Reply:
    headers = {"Content-Type": rung.content_type} if rung.content_type else {}
    return client.request(rung.method, rung.path, headers=headers, raw=rung.body)


def check_rungs(app: Application, client: Client) -> None:
    assert app.answers is not None
    rungs = [rung for rung in APPLICATION_RUNGS if rung.name in app.answers]
    assert {rung.name for rung in rungs} == app.answers
    # Not the upstream rung, which needs its delaying server: test_upstream.py's.
    for rung in (rung for rung in rungs if UPSTREAM_KIND not in rung.needs):
        reply = ask(client, rung)
        assert rung.accepts(reply.status, reply.body), (rung.name, reply.status, reply.body)


def check_page_comments(client: Client) -> None:
    """The page rung's video with its seeded comments, in the order they were written."""
    body = client.request("GET", PAGE.path).body.decode()
    places = [body.index(f"Comment number {n}.") for n in range(1, PAGE_VIDEO_COMMENTS + 1)]
    assert places == sorted(places)


def check_write_swept(app: Application, client: Client, database_url: str) -> None:
    """A comment written is on the cached page at once (every worker), and is the rows the
    repository writes: its short id, the registry's entry, the audit history with its actor."""
    text = f"{app.name} wrote {secrets.token_hex(4)}"
    for _ in range(PAGE_READS):
        before = client.request("GET", PAGE_PATH)  # now in the page cache
        assert before.status == 200 and text.encode() not in before.body
    written = client.request(
        "POST", COMMENTS, {"name": "tester", "body": text}, headers={"X-Layerbench-User": "tester"}
    )
    assert written.status == 201, written.body
    comment = written.json()
    assert comment["body"] == text
    where = f"/videos/{comment['video_id']}/comments/{comment['id']}"
    assert written.headers["location"].endswith(where)
    for _ in range(PAGE_READS):
        after = client.request("GET", PAGE_PATH)
        assert after.status == 200 and text.encode() in after.body
    repository = open_repository(database_url)
    try:
        row = repository.get("comments", comment["id"])
        assert row is not None and row["numid"] == decode(comment["id"]) and row["body"] == text
        assert row["prettyid"] is None
        [change] = repository.history("comments", comment["id"])
        assert change.operation == "insert" and change.actor == "tester@127.0.0.1"
        cursor = repository.connection.cursor()
        p = repository.dialect.placeholder
        cursor.execute(f"SELECT id FROM ids WHERE id = {p}", (comment["id"],))
        assert [found for (found,) in cursor.fetchall()] == [comment["id"]]
        cursor.close()
    finally:
        repository.connection.close()


def check_bad_requests(client: Client) -> None:
    """A missing video, a comment without its body, unreadable JSON, a body not JSON."""
    assert client.request("GET", "/v/no-such-video").status == 404
    nowhere = client.request("POST", "/videos/no-such-video/comments", {"name": "a", "body": "b"})
    assert nowhere.status == 404, nowhere.body
    incomplete = client.request("POST", COMMENTS, {"name": "x"})
    assert incomplete.status == 422, incomplete.body
    assert incomplete.json()["errors"] == ["body.body: required"]
    assert client.request("POST", COMMENTS, raw=b"{").status == 400
    plain = {"Content-Type": "text/plain"}
    assert client.request("POST", COMMENTS, raw=b"name=x", headers=plain).status == 415


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("app", SITE_APPLICATIONS, ids=lambda app: app.name)
def test_framework_site(
    app: Application, layout: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    with LAYOUTS[layout](tmp_path, request) as data, framework_site(app, tmp_path, data) as client:
        check_rungs(app, client)
        check_page_comments(client)
        check_write_swept(app, client, data.database_url)
        if layout == "sqlite":
            check_bad_requests(client)


def test_site_applications_are_the_frameworks_that_write() -> None:
    assert [app.name for app in SITE_APPLICATIONS] == ["django", "flask", "pyramid"]
