"""Two Rails sites on two databases sharing one memcached (their pages kept by
``caches_action``) never serve each other's pages: a page's key carries its database's
identity, as every layerbench site's does (tests/sites/frameworks/test_page_cache_per_database.py).
Before, the key was the path alone: site A answered B's page, with B's new comment on it."""

import secrets
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from layerbench.site_contract import CACHE_URL_VARIABLE
from layerbench_sites.app.ladder_data import AppData, prepare_app_data
from tests.app_server import Client
from tests.sites.frameworks.test_page_cache_per_database import PAGE
from tests.sites.frameworks.test_site_bodies import ACTOR, COMMENTS
from tests.sites.rails_site.test_rails import RailsServer, build, client


@pytest.fixture(scope="module")
def two_sites(memcached_url: str) -> Iterator[tuple[Client, Client]]:
    root = Path(tempfile.mkdtemp(prefix="layerbench-test-rails-pages-"))
    root.chmod(0o711)
    started: list[RailsServer] = []
    try:
        for side in ("a", "b"):
            data = prepare_app_data(root / side / "data")
            shared = AppData(data.db_path, {**data.environment, CACHE_URL_VARIABLE: memcached_url})
            deployment = build("puma", root / side, shared, {"puma": {"workers": "1"}})
            deployment.start()
            started.append(deployment)
        yield client(started[0]), client(started[1])
    finally:
        for deployment in started:
            deployment.stop()
        shutil.rmtree(root, ignore_errors=True)


def test_two_rails_sites_on_one_memcached_keep_their_own_pages(
    two_sites: tuple[Client, Client],
) -> None:
    a, b = two_sites
    a_page = a.request("GET", PAGE)  # kept
    assert a_page.status == 200
    b.request("GET", PAGE)  # kept, to be swept by the write (under the same key)
    text = f"rails on B {secrets.token_hex(4)}"
    written = b.request("POST", COMMENTS, {"name": "tester", "body": text}, headers=ACTOR)
    assert written.status == 201, written.body
    assert text.encode() in b.request("GET", PAGE).body  # B's page, swept and kept again
    again = a.request("GET", PAGE)
    assert text.encode() not in again.body
    assert again.body == a_page.body
