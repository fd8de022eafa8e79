"""The ASGI sites' page cache: the project's generation-keyed page cache (see
:mod:`layerbench_sites.app.api.page_cache`: a page is served only if built under its family's
current
generation, which a committed write replaces) over an async key/value client. The in-process
cache by default (a dictionary: nothing to wait for), Redis through ``redis.asyncio``, memcached
through pymemcache in a worker thread; ``none`` keeps no page."""

import asyncio
import secrets
from typing import Protocol

from layerbench.errors import ConfigError
from layerbench.services.urls import ServiceUrl
from layerbench_sites.app.api.page_cache import GENERATION_PREFIX, PAGE_PREFIX, CachedPage, Lookup
from layerbench_sites.app.cache import DEFAULT_MAX_BYTES, CacheBackend, LocalCache
from layerbench_sites.app.cache_memcached import MemcachedCache
from layerbench_sites.app.cache_select import CHOICES, LOCAL, NONE

CACHE_TIMEOUT_S = 2.0


class AsyncCache(Protocol):
    async def get_many(self, keys: list[str]) -> list[bytes | None]: ...

    async def set(self, key: str, value: bytes) -> None: ...

    async def close(self) -> None:
        """Closes its connections (the server is stopping)."""
        ...


class InProcessCache:
    """The in-process cache, called in the event loop (a lookup never blocks)."""

    def __init__(self, backend: LocalCache) -> None:
        self.backend = backend

    async def get_many(self, keys: list[str]) -> list[bytes | None]:
        return self.backend.get_many(keys)

    async def set(self, key: str, value: bytes) -> None:
        self.backend.set(key, value)

    async def close(self) -> None:
        return None


class ThreadedCache:
    """A blocking client (pymemcache) called in the loop's worker threads."""

    def __init__(self, backend: CacheBackend) -> None:
        self.backend = backend

    async def get_many(self, keys: list[str]) -> list[bytes | None]:
        return await asyncio.to_thread(self.backend.get_many, keys)

    async def set(self, key: str, value: bytes) -> None:
        await asyncio.to_thread(self.backend.set, key, value)

    async def close(self) -> None:
        close = getattr(self.backend, "close", None)
        if close is not None:
            close()


class AsyncRedisCache:
    """Redis through redis.asyncio, failing fast as the WSGI sites' client does."""

    def __init__(self, url: str) -> None:
        import redis.asyncio  # the databases extra's: the site on its in-process cache has none

        parsed = ServiceUrl.parse(url)
        self.client = redis.asyncio.Redis(
            host=parsed.host,
            port=parsed.port,
            db=parsed.redis_db,
            password=parsed.password,
            socket_timeout=CACHE_TIMEOUT_S,
            socket_connect_timeout=CACHE_TIMEOUT_S,
        )

    async def get_many(self, keys: list[str]) -> list[bytes | None]:
        values: list[bytes | None] = await self.client.mget(keys)
        return values

    async def set(self, key: str, value: bytes) -> None:
        await self.client.set(key, value)

    async def close(self) -> None:
        await self.client.aclose()


class AsyncPageCache:
    """Pages in an async key/value cache, each with the generation it was built under (the
    async twin of :class:`layerbench_sites.app.api.page_cache.KeyValuePageCache`)."""

    def __init__(self, cache: AsyncCache, namespace: str = "") -> None:
        """Every key starts with ``namespace`` (see
        :func:`layerbench_sites.app.cache_select.page_namespace`)."""
        self.cache = cache
        self.namespace = namespace

    async def lookup(self, family: str, path: str) -> Lookup:
        key = f"{self.namespace}{PAGE_PREFIX}{family}:{path}"
        generation_key = f"{self.namespace}{GENERATION_PREFIX}{family}"
        generation, data = await self.cache.get_many([generation_key, key])
        if generation is None:
            # None yet (or evicted): a new one, which no kept page carries.
            generation = secrets.token_hex(8).encode()
            await self.cache.set(generation_key, generation)
            return Lookup(family, generation.decode(), key, None)
        page = None
        if data is not None:
            built_under, kept = CachedPage.decode(data)
            page = kept if built_under == generation.decode() else None
        return Lookup(family, generation.decode(), key, page)

    async def keep(self, lookup: Lookup, page: CachedPage) -> None:
        if lookup.place is not None:
            await self.cache.set(lookup.place, page.encode(lookup.generation))

    async def close(self) -> None:
        await self.cache.close()

    async def sweep(self, families: set[str]) -> None:
        """After a write has committed: every page of these families is out of date."""
        for family in families:
            generation_key = f"{self.namespace}{GENERATION_PREFIX}{family}"
            await self.cache.set(generation_key, secrets.token_hex(8).encode())


class NoAsyncPages(AsyncPageCache):
    """No page cache: every page is built."""

    def __init__(self) -> None:
        super().__init__(InProcessCache(LocalCache(0)))

    async def lookup(self, family: str, path: str) -> Lookup:
        return Lookup(family, "", None, None)

    async def sweep(self, families: set[str]) -> None:
        return None


def async_pages_from_url(
    url: str | None, max_bytes: int = DEFAULT_MAX_BYTES, namespace: str = ""
) -> AsyncPageCache:
    """The page cache the cache URL names: ``local`` (the default), ``none``, memcached://…
    or redis://… (a page-cache directory is the WSGI site's, for nginx to serve); its keys
    start with ``namespace``."""
    if url is None or url == LOCAL:
        return AsyncPageCache(InProcessCache(LocalCache(max_bytes)), namespace)
    if url == NONE:
        return NoAsyncPages()
    try:
        kind = ServiceUrl.parse(url).kind
    except ConfigError:
        kind = None
    if kind == "memcached":
        return AsyncPageCache(ThreadedCache(MemcachedCache(url, CACHE_TIMEOUT_S)), namespace)
    if kind == "redis":
        return AsyncPageCache(AsyncRedisCache(url), namespace)
    raise ConfigError(f"{url!r} is not a cache for the ASGI sites: {CHOICES} but file://")
