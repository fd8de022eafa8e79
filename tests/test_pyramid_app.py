"""The Pyramid application (through its paste.deploy ini) under gunicorn, on SQLite
(in-process cache), PostgreSQL (memcached) and MariaDB (Redis): every rung it answers verified
by its definition, a comment written as the project's repository writes one (short id,
registry, audit history with its actor), and the page cache swept after the write's commit
(write, then the cached page shows the comment, on every worker)."""

import secrets
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from layerbench.app.app_config import DATABASE_URL_VARIABLE, ServiceUrls
from layerbench.app.ladder_data import prepare_app_data, seed_site
from layerbench.app.user_app import USER_APP_VARIABLE
from layerbench.datalayer.open_repository import open_repository
from layerbench.frameworks.applications import PYRAMID
from layerbench.ids.codec import decode
from layerbench.proc.ports import free_port
from layerbench.rungs.definitions import APPLICATION_RUNGS, Rung
from layerbench.rungs.rung_data import WRITE_VIDEO_PRETTYID
from layerbench.rungs.seeding import seed_mariadb, seed_postgres
from layerbench.rungs.sqlite_file import create_seeded_database
from layerbench.servers.gunicorn import GunicornServer, GunicornSettings
from tests.app_server import Client, Reply
from tests.datalayer_backends import empty_mariadb_database, empty_postgres_database

assert PYRAMID.entry is not None and PYRAMID.answers is not None
RUNGS = [rung for rung in APPLICATION_RUNGS if rung.name in PYRAMID.answers]
COMMENTS = f"/videos/{WRITE_VIDEO_PRETTYID}/comments"


@contextmanager
def pyramid_site(
    tmp_path: Path, db_path: Path, environment: dict[str, str], workers: int = 1
) -> Iterator[Client]:
    assert PYRAMID.entry is not None
    server = GunicornServer(
        tmp_path / "gunicorn",
        free_port(),
        db_path,
        GunicornSettings(workers=workers, worker_class="gthread", threads=4),
        app_environment={USER_APP_VARIABLE: PYRAMID.entry, **environment},
    )
    with server:
        yield Client(server.port)
        server.check_alive()


def ask(client: Client, rung: Rung) -> Reply:
    headers = {"Content-Type": rung.content_type} if rung.content_type else {}
    return client.request(rung.method, rung.path, headers=headers, raw=rung.body)


def check_site(client: Client, database_url: str) -> None:
    """Every rung accepted by its definition; a comment written and swept onto the page."""
    assert {rung.name for rung in RUNGS} == PYRAMID.answers
    for rung in RUNGS:
        reply = ask(client, rung)
        assert rung.accepts(reply.status, reply.body), (rung.name, reply.status, reply.body)
    page = f"/v/{WRITE_VIDEO_PRETTYID}"
    # Read twice: the page is kept by then on the worker(s) asked.
    for _ in range(2):
        before = client.request("GET", page)
    text = f"pyramid wrote {secrets.token_hex(4)}"
    assert before.status == 200 and text.encode() not in before.body
    written = client.request(
        "POST", COMMENTS, {"name": "tester", "body": text}, headers={"X-Layerbench-User": "tester"}
    )
    assert written.status == 201, written.body
    comment = written.json()
    assert comment["body"] == text
    where = f"/videos/{comment['video_id']}/comments/{comment['id']}"
    assert written.headers["location"].endswith(where)
    for _ in range(4):
        after = client.request("GET", page)
        assert after.status == 200
        assert text.encode() in after.body
    repository = open_repository(database_url)
    try:
        row = repository.get("comments", comment["id"])
        assert row is not None
        assert row["numid"] == decode(comment["id"]) and row["body"] == text
        assert row["prettyid"] is None
        [change] = repository.history("comments", comment["id"])
        assert change.operation == "insert" and change.actor.startswith("tester@127.0.0.1")
    finally:
        repository.connection.close()


def test_pyramid_on_sqlite(tmp_path: Path) -> None:
    data = prepare_app_data(tmp_path / "data")
    with pyramid_site(tmp_path, data.db_path, data.environment) as client:
        check_site(client, data.environment[DATABASE_URL_VARIABLE])
        assert client.request("GET", "/v/no-such-video").status == 404
        bad = client.request("POST", COMMENTS, {"name": "x"})
        assert bad.status == 422 and bad.json()["errors"] == ["body.body: required"]
        assert client.request("POST", COMMENTS, raw=b"{").status == 400


def test_pyramid_on_postgres_with_memcached(
    tmp_path: Path, postgres_url: str, memcached_url: str
) -> None:
    url, drop = empty_postgres_database(postgres_url)
    try:
        seed_postgres(url)
        data = prepare_app_data(
            tmp_path / "data", ServiceUrls(postgres=url, memcached=memcached_url)
        )
        with pyramid_site(tmp_path, data.db_path, data.environment, workers=2) as client:
            check_site(client, url)
    finally:
        drop()


def test_pyramid_on_mariadb_with_redis(tmp_path: Path, mariadb_url: str, redis_url: str) -> None:
    """The site and the orm rung on MariaDB (as the full ladder's ORM URL may name), the page
    cache in Redis, shared by both workers."""
    url, drop = empty_mariadb_database(mariadb_url)
    try:
        seed_mariadb(url)
        seed_site(url)
        environment = {
            DATABASE_URL_VARIABLE: url,
            "LAYERBENCH_ORM_URL": url,
            "LAYERBENCH_CACHE_URL": redis_url,
        }
        db_path = create_seeded_database(tmp_path)
        with pyramid_site(tmp_path, db_path, environment, workers=2) as client:
            check_site(client, url)
    finally:
        drop()
