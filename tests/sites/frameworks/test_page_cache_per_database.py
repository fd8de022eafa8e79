"""Two sites on two databases sharing one cache never serve each other's pages: a site's page
keys carry its database's identity (as its page directory is marked with it), on every
key/value backend (in-process, memcached, a memcached pool, Redis, Redis Cluster) and in every
application that keeps pages in one (the bare site, Flask, Pyramid, Starlette, FastAPI; Django's
keys, WSGI and ASGI, by its cache's key prefix). Before, site A answered B's list, with
``x-cache: hit``, once B had swept and kept it.

The bare site and the ASGI ones run in-process (a WSGI server on a thread, httpx's ASGI
transport), Flask under gunicorn, each on a SQLite database of its own; the caches
are the session's real servers."""

import secrets
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

import pytest

from layerbench.rungs.applications import APPLICATIONS
from layerbench.rungs.rung_data import WRITE_VIDEO_PRETTYID
from layerbench.site_contract import CACHE_URL_VARIABLE, DATABASE_URL_VARIABLE
from layerbench_sites.app.app_config import AppConfig
from layerbench_sites.app.cache import LocalCache
from layerbench_sites.app.cache_select import cache_from_url, pages_from_url
from layerbench_sites.app.ladder_data import AppData, prepare_app_data
from layerbench_sites.frameworks.django_site.settings import django_settings
from layerbench_sites.frameworks.fastapi_site.main import create_app as fastapi_app
from layerbench_sites.frameworks.starlette_site.app import create_app as starlette_app
from tests.app_server import Client, serve
from tests.asgi_client import asgi_client
from tests.sites.frameworks.test_framework_sites import SiteData, framework_site

BACKENDS = {
    "local": None,
    "memcached": "memcached_url",
    "memcached-pool": "memcached_pool_url",
    "redis": "redis_url",
    "redis-cluster": "redis_cluster_url",
}
ACTOR = {"X-Layerbench-User": "tester"}
PAGE = f"/v/{WRITE_VIDEO_PRETTYID}"
COMMENTS = f"/videos/{WRITE_VIDEO_PRETTYID}/comments"


@pytest.fixture(scope="module")
def databases(tmp_path_factory: pytest.TempPathFactory) -> tuple[AppData, AppData]:
    """Two sites' databases (SQLite), each with the demo site's videos: the same pretty ids,
    each database its own identity."""
    directory = tmp_path_factory.mktemp("two-sites")
    return prepare_app_data(directory / "a"), prepare_app_data(directory / "b")


def config(data: AppData, cache_url: str) -> AppConfig:
    return AppConfig(
        db_path=data.db_path, database_url=data.environment[DATABASE_URL_VARIABLE],
        cache_url=cache_url,
    )  # fmt: skip


@pytest.mark.parametrize("backend", BACKENDS)
def test_the_bare_sites_on_one_cache_keep_their_own_lists(
    backend: str, databases: tuple[AppData, AppData], request: pytest.FixtureRequest
) -> None:
    fixture = BACKENDS[backend]
    url = "local" if fixture is None else request.getfixturevalue(fixture)
    shared = LocalCache()  # the in-process cache: one, that both sites are given
    with ExitStack() as stack:
        sites = []
        for data in databases:
            settings = config(data, url)
            cache = shared if fixture is None else cache_from_url(url)
            stack.callback(getattr(cache, "close", lambda: None))
            pages = pages_from_url(url, cache, settings.database_url or "")
            sites.append(stack.enter_context(serve(settings, cache, pages)))
        a, b = sites
        a_list = a.request("GET", "/videos").body  # kept
        title = f"only on B {secrets.token_hex(4)}"
        video = {"title": title, "url": "https://example.org/b"}
        assert b.request("POST", "/videos", video).status == 201
        assert title.encode() in b.request("GET", "/videos").body  # B's list, kept
        again = a.request("GET", "/videos")
        assert again.body == a_list, (again.headers.get("x-cache"), again.body[:300])


@contextmanager
def wsgi_site(name: str, data: AppData, cache_url: str, directory: Path) -> Iterator[Client]:
    """The WSGI framework's site under gunicorn, as the ladder serves it."""
    site = SiteData(
        data.db_path,
        {**data.environment, CACHE_URL_VARIABLE: cache_url},
        data.environment[DATABASE_URL_VARIABLE],
        1,
    )
    directory.mkdir()
    with framework_site(APPLICATIONS[name], directory, site) as client:
        yield client


@contextmanager
def asgi_site(name: str, data: AppData, cache_url: str, directory: Path) -> Iterator[Any]:
    build = starlette_app if name == "starlette" else fastapi_app
    with asgi_client(build(config(data, cache_url))) as client:
        yield client


# Flask under gunicorn for the WSGI frameworks: Pyramid's pages are kept by the same code
# (cache_select.pages_from_url, with its database's URL and its own prefix).
@pytest.mark.parametrize("name", ["flask", "starlette", "fastapi"])
def test_framework_sites_on_one_cache_keep_their_own_pages(
    name: str, databases: tuple[AppData, AppData], redis_url: str, tmp_path: Path
) -> None:
    served = asgi_site if name in ("starlette", "fastapi") else wsgi_site
    with ExitStack() as stack:
        a, b = (
            stack.enter_context(served(name, data, redis_url, tmp_path / side))
            for data, side in zip(databases, "ab", strict=True)
        )
        a_page = a.request("GET", PAGE)
        assert a_page.status == 200
        text = f"{name} on B {secrets.token_hex(4)}"
        written = b.request("POST", COMMENTS, {"name": "tester", "body": text}, headers=ACTOR)
        assert written.status == 201, written.body
        assert text.encode() in b.request("GET", PAGE).body  # B's page, kept
        again = a.request("GET", PAGE)
        assert text.encode() not in again.body
        assert again.body == a_page.body


def test_djangos_keys_are_the_databases(databases: tuple[AppData, AppData], redis_url: str) -> None:
    """Django's cache (WSGI and ASGI sites: the ASGI settings are the WSGI site's) prefixes
    every key with the database's identity."""
    prefixes = [
        django_settings(config(data, redis_url))["CACHES"]["default"]["KEY_PREFIX"]
        for data in databases
    ]
    assert prefixes[0] != prefixes[1]
    assert all(prefix.startswith("django:") for prefix in prefixes)
