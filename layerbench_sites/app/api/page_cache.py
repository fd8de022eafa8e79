"""Page caching with sweepers (the seed's ``caches_page`` and ``cache_sweeper``).

Two page caches keep pages (:class:`PageCache`): :class:`KeyValuePageCache` in a key/value cache
(in-process, memcached, Redis), and :class:`layerbench_sites.app.page_directory.PageDirectory` as
files
that a front server serves.

In the key/value cache, a GET's whole response (body, type, ETag) is kept under its path and
canonical query (the parameters the resource knows, in their parsed form: ``?offset=07`` and
``?offset=7`` are one page; a query with any other parameter is never kept, so that no client
can make pages without end), in a *family*: ``videos`` (the index pages), ``video:REF`` (a
video's pages: itself, its comments, under each name it has), ``tags``. Each family has a
generation, and each page carries the generation it was built under. A write replaces the
generation of every family whose pages it changes, after its transaction commits (the
repository's observer, :mod:`layerbench_sites.app.api.page_sweeper`, does it); a page is
served only if it carries its family's current generation. One round trip reads both
(``get_many``).

A reader reads the generation before the database: a page built from data older than a write
carries the generation before that write, which no later reader accepts.
"""

import hashlib
import json
import secrets
from dataclasses import dataclass
from typing import Protocol

from layerbench_sites.app.cache import CacheBackend

GENERATION_PREFIX = "gen:"
PAGE_PREFIX = "page:"


@dataclass(frozen=True)
class CachedPage:
    body: bytes
    content_type: str
    etag: str

    def encode(self, generation: str) -> bytes:
        head = json.dumps([generation, self.content_type, self.etag]).encode()
        return head + b"\n" + self.body

    @classmethod
    def decode(cls, data: bytes) -> tuple[str, "CachedPage"]:
        """The generation the page was built under, and the page."""
        head, _, body = data.partition(b"\n")
        generation, content_type, etag = json.loads(head)
        return generation, cls(body, content_type, etag)


@dataclass(frozen=True)
class Lookup:
    """A page looked up: what :meth:`PageCache.keep` needs to keep it, and the page if kept."""

    family: str
    generation: str
    # Where the page is kept (a cache key, a file); None when this cache cannot keep it.
    place: str | None
    page: CachedPage | None


class PageCache(Protocol):
    def lookup(self, family: str, path: str, query: str | None, *, shareable: bool) -> Lookup:
        """The page of ``path?query`` in ``family`` (``query`` canonical; None for a request
        whose page is never kept). A page that is not ``shareable`` is finished per request (it
        carries a form token) and is never served as it is kept."""
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


class KeyValuePageCache:
    """Pages in a key/value cache, each with the generation it was built under. Every key
    starts with ``namespace``: the applications that share one cache (``ladder --apps
    bare,flask --full``: one memcached) each keep their own pages and generations, and never
    serve each other's."""

    def __init__(self, backend: CacheBackend, namespace: str = "") -> None:
        self.backend = backend
        self.namespace = namespace

    def lookup(self, family: str, path: str, query: str | None, *, shareable: bool) -> Lookup:
        if query is None:
            return Lookup(family, "", None, None)
        key = f"{self.namespace}{PAGE_PREFIX}{family}:{path}" + (f"?{query}" if query else "")
        generation, data = self.backend.get_many([self._generation_key(family), key])
        if generation is None:
            # None yet (or evicted): a new one, which no kept page carries.
            generation = secrets.token_hex(8).encode()
            self.backend.set(self._generation_key(family), generation)
            return Lookup(family, generation.decode(), key, None)
        page = None
        if data is not None:
            built_under, kept = CachedPage.decode(data)
            page = kept if built_under == generation.decode() else None
        return Lookup(family, generation.decode(), key, page)

    def keep(self, lookup: Lookup, page: CachedPage) -> None:
        if lookup.place is not None:
            self.backend.set(lookup.place, page.encode(lookup.generation))

    def sweep(self, families: set[str]) -> None:
        """After a write has committed: every page of these families is out of date."""
        for family in families:
            self.backend.set(self._generation_key(family), secrets.token_hex(8).encode())

    def _generation_key(self, family: str) -> str:
        return f"{self.namespace}{GENERATION_PREFIX}{family}"


class NoPages:
    """No page cache: every page is built (the uncached page, for comparison)."""

    def lookup(self, family: str, path: str, query: str | None, *, shareable: bool) -> Lookup:
        return Lookup(family, "", None, None)

    def keep(self, lookup: Lookup, page: CachedPage) -> None:
        return None

    def sweep(self, families: set[str]) -> None:
        return None
