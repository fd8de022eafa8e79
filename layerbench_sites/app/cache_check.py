"""Whether the cache a URL names can be used, found out before a server starts (as the database
is): a memcached or Redis server must answer a lookup (every server of a memcached pool: its
client would take a silent server's keys for misses), a page-cache directory must be made or
written. The in-process cache and ``none`` always can."""

from layerbench.errors import ConfigError
from layerbench.services.memcached import probe_memcached
from layerbench_sites.app.cache_select import cache_from_url, cache_kind, pages_from_url

PROBE_KEY = "layerbench:cache-check"


def check_cache_usable(url: str) -> None:
    """Raises ConfigError, in one line, saying why the cache at ``url`` cannot be used."""
    cache = cache_from_url(url)
    try:
        if cache_kind(url) == "memcached":
            probe_memcached(url)
        cache.get(PROBE_KEY)
    except Exception as error:  # the client library's own: refused, timed out, not a server
        raise ConfigError(f"cannot use the cache {url}: {error or type(error).__name__}") from None
    finally:
        close = getattr(cache, "close", None)
        if close is not None:
            close()
    pages_from_url(url, cache)
