"""The site's page cache on Django's cache framework: the project's generation-keyed page cache
(:class:`KeyValuePageCache`: a page is served only if built under its family's current
generation) over the backend ``CACHES`` configures (LocMemCache, PyMemcacheCache, RedisCache,
DummyCache)."""

from django.core.cache import caches

from layerbench_sites.app.api.page_cache import KeyValuePageCache
from layerbench_sites.frameworks.django_site.settings import SITE


class DjangoCache:
    """Django's cache as a :class:`layerbench_sites.app.cache.CacheBackend`."""

    def get(self, key: str) -> bytes | None:
        value: bytes | None = caches[SITE].get(key)
        return value

    def get_many(self, keys: list[str]) -> list[bytes | None]:
        found = caches[SITE].get_many(keys)
        return [found.get(key) for key in keys]

    def set(self, key: str, value: bytes, ttl_s: float | None = None) -> None:
        caches[SITE].set(key, value, timeout=ttl_s)

    def delete(self, key: str) -> None:
        caches[SITE].delete(key)


def site_pages() -> KeyValuePageCache:
    return KeyValuePageCache(DjangoCache())
