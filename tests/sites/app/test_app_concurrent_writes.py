"""Concurrent writes through ``layerbench app serve`` (3 workers of 8 threads, no page cache) on
SQLite, PostgreSQL and MariaDB (throwaway servers): 40 clients creating videos at once, sharing
new and existing tags, all succeed, each recorded once in the history and each new tag created
once; clients that really reuse a pretty id get a 409, one of them alone a 201."""

import json
import threading
import urllib.error
import urllib.request
from collections import Counter
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from layerbench_sites.datalayer.open_repository import open_repository
from tests.app_serve_process import Serving, app_serve
from tests.datalayer_backends import empty_mariadb_database, empty_postgres_database

pytestmark = pytest.mark.services

WRITERS = 40
NEW_TAGS = ("fresh", "also-fresh")
OLD_TAG = "old"


@pytest.fixture(scope="module", params=["sqlite", "postgres", "mariadb"])
def site(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[Serving, str]]:
    """app serve on an empty database of the kind named, and the database's URL."""
    drop: Callable[[], None] = lambda: None  # noqa: E731
    if request.param == "sqlite":
        url = str(tmp_path_factory.mktemp("site") / "site.sqlite3")
    elif request.param == "postgres":
        url, drop = empty_postgres_database(request.getfixturevalue("postgres_url"))
    else:
        url, drop = empty_mariadb_database(request.getfixturevalue("mariadb_url"))
    try:
        options = ["--db", url, "--cache", "none", "--workers", "3", "--threads", "8"]
        with app_serve(*options, "--no-demo-data") as serving:
            yield serving, url
    finally:
        drop()


def post_video(base_url: str, video: dict[str, Any]) -> tuple[int, Any]:
    request = urllib.request.Request(
        f"{base_url}/videos",
        data=json.dumps(video).encode(),
        headers={"Content-Type": "application/json"},
        method="POST",
    )
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            return answer.status, json.load(answer)
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read() or b"null")


def all_at_once(base_url: str, videos: list[dict[str, Any]]) -> list[tuple[int, Any]]:
    """Every video POSTed by a thread of its own, released together; each thread has read the
    site first, so that the server's threads have their database connections when the writes
    come (opening them one after the other would spread the writes out)."""
    results: list[tuple[int, Any]] = [(0, None)] * len(videos)
    warm, start = threading.Barrier(len(videos)), threading.Barrier(len(videos))

    def write(index: int) -> None:
        warm.wait()
        with urllib.request.urlopen(f"{base_url}/tags", timeout=30) as answer:
            answer.read()
        start.wait()
        results[index] = post_video(base_url, videos[index])

    threads = [threading.Thread(target=write, args=(i,)) for i in range(len(videos))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    return results


def query(url: str, sql: str) -> list[tuple[Any, ...]]:
    repository = open_repository(url)
    try:
        cursor = repository.connection.cursor()
        cursor.execute(sql)
        return list(cursor.fetchall())
    finally:
        repository.connection.close()


def test_concurrent_writers_sharing_new_and_existing_tags_all_succeed(
    site: tuple[Serving, str],
) -> None:
    serving, url = site
    status, _ = post_video(
        serving.base_url, {"title": "first", "url": "https://example.org/u", "tags": [OLD_TAG]}
    )
    assert status == 201
    videos = [
        {"title": f"video {i}", "url": f"https://example.org/{i}", "tags": [OLD_TAG, *NEW_TAGS]}
        for i in range(WRITERS)
    ]
    results = all_at_once(serving.base_url, videos)
    assert Counter(status for status, _ in results) == {201: WRITERS}, results
    created = {body["id"] for _, body in results}
    assert len(created) == WRITERS
    assert all(sorted(body["tags"]) == sorted([OLD_TAG, *NEW_TAGS]) for _, body in results)
    inserts = query(
        url,
        "SELECT table_name, row_key FROM history WHERE operation = 'insert'"
        " AND table_name IN ('videos', 'tags')",
    )
    video_rows = [key for table, key in inserts if table == "videos"]
    assert len(video_rows) == WRITERS + 1 and created <= set(video_rows)
    assert Counter(table for table, _ in inserts)["tags"] == 1 + len(NEW_TAGS)
    tags = dict(query(url, "SELECT name, count(*) FROM tags GROUP BY name"))
    assert tags == {OLD_TAG: 1, **dict.fromkeys(NEW_TAGS, 1)}
    links = query(url, "SELECT count(*) FROM video_tags")[0][0]
    assert links == 1 + WRITERS * 3


def test_clients_reusing_a_pretty_id_get_409_and_one_201(site: tuple[Serving, str]) -> None:
    serving, _ = site
    clients = 8
    videos = [
        {
            "title": f"mine {i}",
            "url": "https://example.org/u",
            "prettyid": "taken-once",
            "tags": ["reused"],
        }
        for i in range(clients)
    ]
    results = all_at_once(serving.base_url, videos)
    assert Counter(status for status, _ in results) == {201: 1, 409: clients - 1}, results
