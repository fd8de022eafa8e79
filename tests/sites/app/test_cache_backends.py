"""Every cache backend behaves the same, against the real memcached, a pool of three memcached
servers, Redis and Redis Cluster."""

import time
from collections.abc import Iterator

import pytest

from layerbench.errors import ConfigError
from layerbench_sites.app.cache import CacheBackend
from layerbench_sites.app.cache_memcached import MAX_KEY_BYTES, memcached_key
from layerbench_sites.app.cache_select import cache_from_url

pytestmark = pytest.mark.services


@pytest.fixture(params=["local", "memcached", "memcached-pool", "redis", "redis-cluster"])
def cache(request: pytest.FixtureRequest) -> Iterator[CacheBackend]:
    fixture = f"{request.param.replace('-', '_')}_url"
    url = "local" if request.param == "local" else request.getfixturevalue(fixture)
    backend = cache_from_url(url)
    yield backend
    close = getattr(backend, "close", None)
    if close is not None:
        close()


def unique(name: str) -> str:
    return f"{name}-{time.monotonic_ns()}"


def test_get_set_delete(cache: CacheBackend) -> None:
    key = unique("k")
    assert cache.get(key) is None
    cache.set(key, b"v\x00\xff")
    assert cache.get(key) == b"v\x00\xff"
    cache.delete(key)
    assert cache.get(key) is None
    cache.delete(key)


def test_get_many_answers_in_order_with_none_for_the_missing(cache: CacheBackend) -> None:
    present, absent, long_one = unique("a"), unique("b"), unique("/videos?q=a b") + "x" * 300
    cache.set(present, b"1")
    cache.set(long_one, b"3")
    assert cache.get_many([present, absent, long_one, present]) == [b"1", None, b"3", b"1"]
    assert cache.get_many([]) == []


def test_entries_expire(cache: CacheBackend) -> None:
    key = unique("short")
    cache.set(key, b"v", ttl_s=0.5)
    assert cache.get(key) == b"v"
    deadline = time.monotonic() + 5
    while cache.get(key) is not None:
        assert time.monotonic() < deadline, "the entry never expired"
        time.sleep(0.05)


def test_page_urls_work_as_keys(cache: CacheBackend) -> None:
    key = unique("/videos/abc/comments?page=2&q=a b") + "x" * 400
    cache.set(key, b"page")
    assert cache.get(key) == b"page"
    assert cache.get(key + "y") is None


def test_memcached_keys_are_legal() -> None:
    assert memcached_key("/videos/1") == "/videos/1"
    for key in ("a b", "x" * 300, "é"):
        safe = memcached_key(key)
        assert len(safe.encode()) <= MAX_KEY_BYTES and " " not in safe
    assert memcached_key("a b") != memcached_key("a  b")


def test_unknown_cache_url() -> None:
    with pytest.raises(ConfigError):
        cache_from_url("postgresql://x@127.0.0.1/db")
