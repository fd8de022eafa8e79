"""The Flask application under gunicorn, on SQLite (in-process page cache), PostgreSQL
(memcached) and MariaDB (Redis): every rung it answers verified by its definition, the video
page with its comments, a comment written as the project's repository writes one (short id,
registry, audit history with its actor), and the page swept after the commit (write, then the
cached page shows the comment on every worker)."""

import secrets
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from layerbench.app.app_config import (
    CACHE_URL_VARIABLE,
    DATABASE_URL_VARIABLE,
    ORM_URL_VARIABLE,
    ServiceUrls,
)
from layerbench.app.ladder_data import prepare_app_data, seed_site
from layerbench.app.user_app import USER_APP_VARIABLE
from layerbench.datalayer.open_repository import open_repository
from layerbench.frameworks.applications import FLASK
from layerbench.ids.codec import decode
from layerbench.proc.ports import free_port
from layerbench.rungs.definitions import APPLICATION_RUNGS, PAGE
from layerbench.rungs.rung_data import PAGE_VIDEO_COMMENTS, WRITE_VIDEO_PRETTYID
from layerbench.rungs.seeding import seed_mariadb, seed_postgres
from layerbench.rungs.sqlite_file import create_seeded_database
from layerbench.servers.gunicorn import GunicornServer, GunicornSettings
from tests.app_server import Client
from tests.datalayer_backends import empty_mariadb_database, empty_postgres_database

assert FLASK.entry is not None and FLASK.answers is not None
RUNGS = [rung for rung in APPLICATION_RUNGS if rung.name in FLASK.answers]
COMMENTS = f"/videos/{WRITE_VIDEO_PRETTYID}/comments"


@contextmanager
def flask_site(
    tmp_path: Path, db_path: Path, environment: dict[str, str], workers: int = 1
) -> Iterator[Client]:
    assert FLASK.entry is not None
    server = GunicornServer(
        tmp_path / "gunicorn",
        free_port(),
        db_path,
        GunicornSettings(workers=workers, worker_class="gthread", threads=4),
        app_environment={USER_APP_VARIABLE: FLASK.entry, **environment},
    )
    with server:
        yield Client(server.port)
        server.check_alive()


def check_rungs(client: Client) -> None:
    assert {rung.name for rung in RUNGS} == FLASK.answers
    for rung in RUNGS:
        headers = {"Content-Type": rung.content_type} if rung.content_type else {}
        reply = client.request(rung.method, rung.path, headers=headers, raw=rung.body)
        assert rung.accepts(reply.status, reply.body), (rung.name, reply.status, reply.body)


def check_page_comments(client: Client) -> None:
    """The page rung's video with its seeded comments, in the order they were written."""
    body = client.request("GET", PAGE.path).body.decode()
    places = [body.index(f"Comment number {n}.") for n in range(1, PAGE_VIDEO_COMMENTS + 1)]
    assert places == sorted(places)


def check_write_swept(client: Client, database_url: str, workers: int) -> None:
    """A comment written is on the cached page at once (every worker), and is the rows the
    repository writes: its short id, the registry's entry, the audit history with its actor."""
    page = f"/v/{WRITE_VIDEO_PRETTYID}"
    text = f"flask wrote {secrets.token_hex(4)}"
    for _ in range(workers * 2):
        assert text.encode() not in client.request("GET", page).body  # now in the page cache
    written = client.request(
        "POST", COMMENTS, {"name": "tester", "body": text}, headers={"X-Layerbench-User": "tester"}
    )
    assert written.status == 201, written.body
    comment = written.json()
    assert comment["body"] == text
    for _ in range(workers * 2):
        after = client.request("GET", page)
        assert after.status == 200 and text.encode() in after.body
    repository = open_repository(database_url)
    try:
        row = repository.get("comments", comment["id"])
        assert row is not None and row["numid"] == decode(comment["id"]) and row["body"] == text
        [change] = repository.history("comments", comment["id"])
        assert change.operation == "insert" and change.actor == "tester@127.0.0.1"
        cursor = repository.connection.cursor()
        p = repository.dialect.placeholder
        cursor.execute(f"SELECT id FROM ids WHERE id = {p}", (comment["id"],))
        assert [found for (found,) in cursor.fetchall()] == [comment["id"]]
        cursor.close()
    finally:
        repository.connection.close()


def check_site(client: Client, database_url: str, workers: int) -> None:
    check_rungs(client)
    check_page_comments(client)
    check_write_swept(client, database_url, workers)


def test_flask_on_sqlite(tmp_path: Path) -> None:
    data = prepare_app_data(tmp_path / "data")
    with flask_site(tmp_path, data.db_path, data.environment) as client:
        check_site(client, data.environment[DATABASE_URL_VARIABLE], workers=1)
        assert client.request("GET", "/v/no-such-video").status == 404
        assert (
            client.request(
                "POST", "/videos/no-such-video/comments", {"name": "a", "body": "b"}
            ).status
            == 404
        )
        assert client.request("POST", COMMENTS, {"name": "x"}).status == 422
        assert client.request("POST", COMMENTS, raw=b"{", headers={}).status == 400
        assert (
            client.request(
                "POST", COMMENTS, raw=b"name=x", headers={"Content-Type": "text/plain"}
            ).status
            == 415
        )


def test_flask_on_postgres_with_memcached(
    tmp_path: Path, postgres_url: str, memcached_url: str
) -> None:
    url, drop = empty_postgres_database(postgres_url)
    try:
        seed_postgres(url)
        services = ServiceUrls(postgres=url, memcached=memcached_url)
        data = prepare_app_data(tmp_path / "data", services)
        with flask_site(tmp_path, data.db_path, data.environment, workers=2) as client:
            check_site(client, url, workers=2)
    finally:
        drop()


def test_flask_on_mariadb_with_redis(tmp_path: Path, mariadb_url: str, redis_url: str) -> None:
    url, drop = empty_mariadb_database(mariadb_url)
    try:
        seed_mariadb(url)
        seed_site(url)
        environment = {
            DATABASE_URL_VARIABLE: url,
            ORM_URL_VARIABLE: url,
            CACHE_URL_VARIABLE: redis_url,
        }
        with flask_site(tmp_path, create_seeded_database(tmp_path), environment, 2) as client:
            check_site(client, url, workers=2)
    finally:
        drop()
