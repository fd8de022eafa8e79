"""0 stale pages: writers and readers at once against each cache backend (in-process,
memcached, Redis); once a write has returned, no read that starts later shows older content
— the JSON video, the JSON index and the HTML page alike."""

import re
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from layerbench.app.cache import CacheBackend, LocalCache
from layerbench.app.cache_memcached import MemcachedCache
from layerbench.app.cache_redis import RedisCache
from layerbench.app.settings import AppSettings
from layerbench.datalayer.open_store import prepare
from layerbench.services.sqlite import create_seeded_database
from tests.app_server import Client, serve

pytestmark = pytest.mark.services

WRITES = 60
READERS = 4
TITLE = re.compile(rb"version (\d+)\b")


@dataclass(frozen=True)
class Read:
    started: float
    path: str
    version: int


@pytest.fixture(params=["local", "memcached", "redis"])
def backend(request: pytest.FixtureRequest) -> Iterator[CacheBackend]:
    if request.param == "local":
        yield LocalCache()
    elif request.param == "memcached":
        memcached = MemcachedCache(request.getfixturevalue("memcached_url"))
        yield memcached
        memcached.close()
    else:
        redis = RedisCache(request.getfixturevalue("redis_url"))
        yield redis
        redis.close()


def versions_in(body: bytes) -> list[int]:
    return [int(found) for found in TITLE.findall(body)]


def test_no_read_after_a_write_shows_what_it_replaced(
    backend: CacheBackend, tmp_path: Path
) -> None:
    url = str(tmp_path / "site.sqlite3")
    prepare(url)
    settings = AppSettings(db_path=create_seeded_database(tmp_path), store_url=url)
    with serve(settings, backend) as site:
        video = site.request(
            "POST", "/videos", {"title": "version 0", "url": "https://example.org/v"}
        ).json()
        paths = [f"/videos/{video['id']}", "/videos?limit=5", f"/v/{video['id']}"]
        written: list[tuple[float, int]] = []  # (when the write returned, its version)
        reads: list[Read] = []
        done = threading.Event()
        failures: list[str] = []

        def write() -> None:
            try:
                for version in range(1, WRITES + 1):
                    patched = site.request("PATCH", paths[0], {"title": f"version {version}"})
                    assert patched.status == 200, patched.body
                    written.append((time.monotonic(), version))
            except BaseException as error:
                failures.append(f"writer: {error!r}")
            finally:
                done.set()

        def read(client: Client, offset: int) -> None:
            n = offset
            try:
                while not done.is_set():
                    path = paths[n % len(paths)]
                    n += 1
                    started = time.monotonic()
                    answer = client.request("GET", path)
                    assert answer.status == 200, answer.body
                    found = set(versions_in(answer.body))
                    assert len(found) == 1, (path, answer.body[:300])
                    reads.append(Read(started, path, found.pop()))
            except BaseException as error:
                failures.append(f"reader: {error!r}")

        threads = [threading.Thread(target=write)]
        threads += [threading.Thread(target=read, args=(site, i)) for i in range(READERS)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=120)
        assert not failures, failures
        assert not any(thread.is_alive() for thread in threads)

    stale = []
    for one in reads:
        returned_before = [version for at, version in written if at < one.started]
        if returned_before and one.version < max(returned_before):
            stale.append((one.path, one.version, max(returned_before)))
    assert len(written) == WRITES
    assert len(reads) > WRITES, "the readers hardly overlapped the writes"
    hits = {one.path for one in reads}
    assert hits == set(paths)
    assert stale == [], f"{len(stale)} stale reads of {len(reads)}: {stale[:5]}"
