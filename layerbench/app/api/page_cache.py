"""Page caching with sweepers (the seed's ``caches_page`` and ``cache_sweeper``).

Two stores keep pages: :class:`PageCache` in a key/value cache (in-process, memcached, Redis),
and :class:`layerbench.app.page_directory.PageDirectory` as files that a front server serves.

In the key/value cache, a GET's whole response (body, type, ETag) is kept under its path and
query, in a *family*: ``videos`` (the index pages), ``video:REF`` (a video's pages: itself,
its comments, under each name it has), ``tags``. A write bumps the generation of every family
whose pages it changes, after its transaction commits; keys carry the generation, so the pages
of an old generation are never read again and age out of the cache.

A reader reads the generation before the database: a page built from data older than a write
is then stored under the generation before that write, which no later reader asks for.
"""

import hashlib
import json
import secrets
from dataclasses import dataclass
from typing import Protocol

from layerbench.app.cache import CacheBackend

GENERATION_PREFIX = "gen:"
PAGE_PREFIX = "page:"


@dataclass(frozen=True)
class CachedPage:
    body: bytes
    content_type: str
    etag: str

    def encode(self) -> bytes:
        head = json.dumps([self.content_type, self.etag]).encode()
        return head + b"\n" + self.body

    @classmethod
    def decode(cls, data: bytes) -> "CachedPage":
        head, _, body = data.partition(b"\n")
        content_type, etag = json.loads(head)
        return cls(body, content_type, etag)


@dataclass(frozen=True)
class Lookup:
    """A page looked up: what :meth:`PageStore.keep` needs to keep it, and the page if kept."""

    family: str
    generation: str
    # Where the page is kept (a cache key, a file); None when this store cannot keep it.
    place: str | None
    page: CachedPage | None


class PageStore(Protocol):
    def lookup(self, family: str, path: str, query: str, *, shareable: bool) -> Lookup:
        """The page of ``path?query`` in ``family``. A page that is not ``shareable`` is
        finished per request (it carries a form token) and is never served as it is kept."""
        ...

    def keep(self, lookup: Lookup, page: CachedPage) -> None:
        """Keeps the page built after ``lookup``, unless a sweep of its family came between."""
        ...

    def sweep(self, families: set[str]) -> None:
        """After a write has committed: every page of these families is out of date."""
        ...


def etag_of(body: bytes) -> str:
    return '"' + hashlib.blake2b(body, digest_size=12).hexdigest() + '"'


def video_family(ref: str) -> str:
    return f"video:{ref}"


class PageCache:
    """Pages in a key/value cache, under keys that carry their family's generation."""

    def __init__(self, backend: CacheBackend) -> None:
        self.backend = backend

    def lookup(self, family: str, path: str, query: str, *, shareable: bool) -> Lookup:
        generation = self.generation(family)
        key = self.key(family, generation, f"{path}?{query}" if query else path)
        return Lookup(family, generation, key, self.get(key))

    def keep(self, lookup: Lookup, page: CachedPage) -> None:
        if lookup.place is not None:
            self.put(lookup.place, page)

    def generation(self, family: str) -> str:
        """The family's current generation (a new one if the cache has none)."""
        key = GENERATION_PREFIX + family
        value = self.backend.get(key)
        if value is None:
            value = secrets.token_hex(8).encode()
            self.backend.set(key, value)
        return value.decode()

    def key(self, family: str, generation: str, path: str) -> str:
        return f"{PAGE_PREFIX}{family}@{generation}:{path}"

    def get(self, key: str) -> CachedPage | None:
        data = self.backend.get(key)
        return None if data is None else CachedPage.decode(data)

    def put(self, key: str, page: CachedPage) -> None:
        self.backend.set(key, page.encode())

    def sweep(self, families: set[str]) -> None:
        """After a write has committed: every page of these families is out of date."""
        for family in families:
            self.backend.set(GENERATION_PREFIX + family, secrets.token_hex(8).encode())
