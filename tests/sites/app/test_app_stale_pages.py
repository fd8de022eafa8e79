"""0 stale pages: writers and readers at once against each cache backend (in-process,
memcached, Redis, and the page-cache directory through nginx, which serves its files); once a
write has returned, no read that starts later shows older content — the JSON video, the JSON
index and the HTML pages alike."""

from collections.abc import Iterator
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path

import pytest

from layerbench.proc.ports import free_port
from layerbench.rungs.sqlite_file import create_seeded_database
from layerbench.servers.nginx_front import NginxFront
from layerbench_sites.app.api.page_cache import PageCache
from layerbench_sites.app.app_config import AppConfig
from layerbench_sites.app.cache import CacheBackend, LocalCache
from layerbench_sites.app.cache_memcached import MemcachedCache
from layerbench_sites.app.cache_redis import RedisCache
from layerbench_sites.app.page_directory import PageDirectory
from layerbench_sites.datalayer.open_repository import prepare
from tests.app_server import Client, serve
from tests.stale_reads import drive, versions_in

pytestmark = pytest.mark.services

WRITES = 60
READERS = 4


@dataclass(frozen=True)
class Backing:
    cache: CacheBackend
    # The page-cache directory, served by nginx in front of the application.
    directory: Path | None = None

    @property
    def pages(self) -> PageCache | None:
        return None if self.directory is None else PageDirectory(self.directory, "stale-pages")


@pytest.fixture(params=["local", "memcached", "redis", "directory"])
def backing(request: pytest.FixtureRequest) -> Iterator[Backing]:
    if request.param == "local":
        yield Backing(LocalCache())
    elif request.param == "memcached":
        memcached = MemcachedCache(request.getfixturevalue("memcached_url"))
        yield Backing(memcached)
        memcached.close()
    elif request.param == "redis":
        redis = RedisCache(request.getfixturevalue("redis_url"))
        yield Backing(redis)
        redis.close()
    else:
        request.getfixturevalue("nginx_binary")
        yield Backing(LocalCache(), request.getfixturevalue("workdir") / "pages")


def started(stack: ExitStack, settings: AppConfig, backing: Backing) -> Client:
    """The application on ``backing``, behind nginx for the page-cache directory."""
    site = stack.enter_context(serve(settings, backing.cache, backing.pages))
    if backing.directory is None:
        return site
    upstream = f"127.0.0.1:{site.port}"
    front = NginxFront(backing.directory.parent / "nginx", free_port(), upstream, backing.directory)
    stack.enter_context(front)
    return Client(front.port)


def paths_read(video: str, backing: Backing) -> list[str]:
    """The video's JSON first (the writer patches it), an index, an HTML page."""
    if backing.directory is not None:
        # The pages a front server can serve as files: no query string, no form token.
        return [f"/videos/{video}", "/videos", "/"]
    return [f"/videos/{video}", "/videos?limit=5", f"/v/{video}"]


def test_no_read_after_a_write_shows_what_it_replaced(backing: Backing, tmp_path: Path) -> None:
    url = str(tmp_path / "site.sqlite3")
    prepare(url)
    settings = AppConfig(db_path=create_seeded_database(tmp_path), database_url=url)
    with ExitStack() as stack:
        site = started(stack, settings, backing)
        video = site.request(
            "POST", "/videos", {"title": "version 0", "url": "https://example.org/v"}
        ).json()
        paths = paths_read(video["id"], backing)

        def write(version: int) -> None:
            patched = site.request("PATCH", paths[0], {"title": f"version {version}"})
            assert patched.status == 200, patched.body

        def version_of(path: str, body: bytes) -> int:
            found = set(versions_in(body))
            assert len(found) == 1, (path, body[:300])
            return found.pop()

        run = drive(site, write, paths, version_of, writes=WRITES, readers=READERS)

    reads, written = run.reads, run.written
    stale = run.stale()
    assert len(written) == WRITES
    assert len(reads) > WRITES, "the readers hardly overlapped the writes"
    assert {one.path for one in reads} == set(paths)
    # Pages were served from where they were kept, not only built.
    kept = "front" if backing.directory is not None else "hit"
    assert sum(one.cache == kept for one in reads) > WRITES, {one.cache for one in reads}
    assert stale == [], f"{len(stale)} stale reads of {len(reads)}: {stale[:5]}"
