"""Choosing a cache backend: ``local`` (in-process, the default), or a memcached:// or redis://
URL."""

from layerbench.app.cache import CacheBackend, LocalCache
from layerbench.app.cache_memcached import MemcachedCache
from layerbench.app.cache_redis import RedisCache
from layerbench.errors import ConfigError
from layerbench.services.urls import ServiceUrl

LOCAL = "local"


def cache_from_url(url: str | None) -> CacheBackend:
    if url is None or url == LOCAL:
        return LocalCache()
    kind = ServiceUrl.parse(url).kind
    if kind == "memcached":
        return MemcachedCache(url)
    if kind == "redis":
        return RedisCache(url)
    raise ConfigError(f"{url!r} is not a cache: use {LOCAL}, memcached://… or redis://…")
