"""Choosing a cache backend: ``local`` (in-process, the default), a memcached:// URL (one server,
or a pool: ``memcached://H1:P1,H2:P2,…``), a redis:// or redis-cluster:// URL, or a page-cache
directory as a file:// URL (pages as files for a front server; the cache rung then uses the
in-process cache); ``none`` caches no page (the rung's cache is in-process)."""

from pathlib import Path
from urllib.parse import unquote, urlsplit

from layerbench.errors import ConfigError
from layerbench.services.memcached import SCHEME as MEMCACHED_SCHEME
from layerbench.services.urls import ServiceUrl
from layerbench.site_contract import LOCAL_CACHE, NO_CACHE
from layerbench_sites.app.api.page_cache import KeyValuePageCache, NoPages, PageCache
from layerbench_sites.app.cache import DEFAULT_MAX_BYTES, CacheBackend, LocalCache
from layerbench_sites.app.cache_memcached import MemcachedCache
from layerbench_sites.app.cache_redis import RedisCache
from layerbench_sites.app.cache_redis_cluster import RedisClusterCache
from layerbench_sites.app.page_directory import PageDirectory
from layerbench_sites.datalayer.open_repository import open_repository

LOCAL = LOCAL_CACHE
NONE = NO_CACHE
DIRECTORY_SCHEME = "file"
CHOICES = (
    f"use {LOCAL}, {NONE}, memcached://HOST:PORT[,HOST:PORT…], redis://…, redis-cluster://… "
    "or file:///DIRECTORY"
)


def page_directory_of(url: str) -> Path | None:
    """The directory a file:// URL names; None for any other URL."""
    parts = urlsplit(url)
    if parts.scheme != DIRECTORY_SCHEME:
        return None
    path = Path(unquote(parts.path))
    if parts.netloc not in ("", "localhost") or not path.is_absolute() or parts.query:
        raise ConfigError(f"{url!r}: a page-cache directory is file:///ABSOLUTE/PATH")
    return path


def cache_from_url(url: str | None, local_max_bytes: int = DEFAULT_MAX_BYTES) -> CacheBackend:
    """The cache ``url`` names; the in-process one is bounded by ``local_max_bytes``."""
    if url is None or url in (LOCAL, NONE) or page_directory_of(url) is not None:
        return LocalCache(local_max_bytes)
    kind = cache_kind(url)
    if kind == "memcached":
        return MemcachedCache(url)
    if kind == "redis":
        return RedisCache(url)
    if kind == "redis-cluster":
        return RedisClusterCache(url)
    raise ConfigError(f"{url!r} is not a cache: {CHOICES}")


def cache_kind(url: str) -> str | None:
    """The kind of server a cache URL names (``memcached`` for a pool too); None for none."""
    if urlsplit(url).scheme == MEMCACHED_SCHEME:
        return "memcached"
    try:
        return ServiceUrl.parse(url).kind
    except ConfigError:
        return None


def database_identity(database_url: str) -> str:
    """The identity of the database at ``database_url``: its own id, drawn when its schema was
    made (a database made again at the same path or URL has another); "" for no database."""
    if not database_url:
        return ""
    try:
        repository = open_repository(database_url)
    except Exception as error:  # the driver's own: refused, no such file
        raise ConfigError(f"cannot open the database for its identity: {error}") from None
    try:
        return repository.identity()
    except Exception as error:  # the driver's own: no such table (an older schema)
        raise ConfigError(
            f"cannot read the database's identity (revision 0005 made it): {error}"
        ) from None
    finally:
        repository.connection.close()


def page_namespace(database_url: str | None, application: str = "") -> str:
    """What the keys of a site's pages in a key/value cache start with: the application's
    prefix (a framework's; the bare application has none) and the identity of the database the
    pages are built from, as the page directory is marked with it. Two sites on one cache (on
    two databases, or a database made again at the same URL) never serve each other's pages."""
    identity = database_identity(database_url or "")
    return f"{application}{identity}:" if identity else application


def pages_from_url(
    url: str | None, cache: CacheBackend, database_url: str = "", namespace: str = ""
) -> PageCache:
    """Where the site keeps the pages of the database at ``database_url``: the directory of a
    file:// URL, nowhere for ``none``, or else ``cache``, under keys starting with
    ``namespace`` (a framework application's: the bare application's keys have none) and the
    database's identity (:func:`page_namespace`)."""
    if url == NONE:
        return NoPages()
    directory = page_directory_of(url) if url else None
    if directory is None:
        return KeyValuePageCache(cache, page_namespace(database_url, namespace))
    try:
        return PageDirectory(directory, database_identity(database_url))
    except OSError as error:
        raise ConfigError(f"the page-cache directory {directory}: {error.strerror}") from None
