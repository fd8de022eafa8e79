"""Applications sharing one cache keep their own pages: ``ladder --apps bare,flask,pyramid
--full`` gives every application's server the same memcached, and the bare application, Flask
and Pyramid all keep their pages through the project's key/value page cache. With the same keys
the application asked second served the first one's page as its cached page (its
``cached-page`` rung then measured another application's page). Each application's cached page
here is its own: the page its ``page`` rung builds on every request, byte for byte but for the
bare page's form token (a new one on every request)."""

import re
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from pymemcache.client.base import Client as MemcachedClient

from layerbench.proc.ports import free_port
from layerbench.rungs.applications import BARE, FLASK, PYRAMID, Application
from layerbench.rungs.definitions import CACHED_PAGE, PAGE
from layerbench.servers.gunicorn import GunicornServer, GunicornSettings
from layerbench_sites.app.app_config import ServiceUrls
from layerbench_sites.app.ladder_data import AppData, prepare_app_data
from layerbench_sites.app.user_app import USER_APP_VARIABLE
from tests.app_server import Client

pytestmark = pytest.mark.services

# The bare application first: the frameworks' lookups then find its keys, if they share them.
SHARING = [BARE, FLASK, PYRAMID]
FORM_TOKEN = re.compile(rb'name="csrf_token" value="[^"]*"')


def without_token(page: bytes) -> bytes:
    return FORM_TOKEN.sub(b'name="csrf_token"', page)


@contextmanager
def served(app: Application, tmp_path: Path, data: AppData) -> Iterator[Client]:
    environment = {**data.environment, **({USER_APP_VARIABLE: app.entry} if app.entry else {})}
    server = GunicornServer(
        tmp_path / f"gunicorn-{app.name}",
        free_port(),
        data.db_path,
        GunicornSettings(workers=1, worker_class="gthread", threads=2),
        app_environment=environment,
    )
    with server:
        yield Client(server.port)
        server.check_alive()


def test_applications_on_one_memcached_serve_their_own_cached_pages(
    tmp_path: Path, memcached_url: str
) -> None:
    # The session's memcached holds other tests' pages of other databases under the same
    # application's keys (seen: "bare served a page not its own" after the suite's earlier tests).
    host, port = memcached_url.removeprefix("memcached://").rsplit(":", 1)
    flusher = MemcachedClient((host, int(port)))
    flusher.flush_all()
    flusher.close()
    data = prepare_app_data(tmp_path / "data", ServiceUrls(memcached=memcached_url))
    pages: dict[str, bytes] = {}
    for app in SHARING:
        with served(app, tmp_path, data) as client:
            built = client.request("GET", PAGE.path)
            assert built.status == 200
            for _ in range(2):  # kept by the first, served from the cache by the second
                cached = client.request("GET", CACHED_PAGE.path)
                assert cached.status == 200
                mine = without_token(cached.body) == without_token(built.body)
                assert mine, f"{app.name} served a page not its own"
            pages[app.name] = without_token(built.body)
    # The test means something only if the applications' pages differ.
    assert len(set(pages.values())) == len(SHARING), "two applications' pages are alike"
