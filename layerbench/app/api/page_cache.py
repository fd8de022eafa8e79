"""Page caching with sweepers (the seed's ``caches_page`` and ``cache_sweeper``).

A GET's whole response (body, type, ETag) is kept under its path and query, in a *family*:
``videos`` (the index pages), ``video:REF`` (a video's pages: itself, its comments, under each
name it has), ``tags``. A write bumps the generation of every family whose pages it changes,
after its transaction commits; keys carry the generation, so the pages of an old generation
are never read again and age out of the cache.

A reader reads the generation before the database: a page built from data older than a write
is then stored under the generation before that write, which no later reader asks for.
"""

import hashlib
import json
import secrets
from dataclasses import dataclass

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


def etag_of(body: bytes) -> str:
    return '"' + hashlib.blake2b(body, digest_size=12).hexdigest() + '"'


def video_family(ref: str) -> str:
    return f"video:{ref}"


class PageCache:
    def __init__(self, backend: CacheBackend) -> None:
        self.backend = backend

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
