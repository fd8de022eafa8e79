"""The embedded cache backend: an in-process key/value store with expiry.

It answers the ``cache`` rung (the seed's memcached lookup, without the network) and keeps the
site's pages when no other cache is named. It is bounded in bytes, not entries: a page can weigh
a megabyte, and what a client asks for decides how many pages there are.
"""

import threading
import time
from collections import OrderedDict
from typing import Protocol

DEFAULT_MAX_BYTES = 64 * 1024 * 1024
# What an entry costs besides its key's and value's characters: the dict slot, the ordering
# links, the tuple, the objects' headers (about 200 bytes in CPython 3.12; a round figure above).
ENTRY_OVERHEAD_BYTES = 256


class CacheBackend(Protocol):
    def get(self, key: str) -> bytes | None: ...

    def get_many(self, keys: list[str]) -> list[bytes | None]:
        """The values of ``keys``, in order, in one round trip."""
        ...

    def set(self, key: str, value: bytes, ttl_s: float | None = None) -> None: ...

    def delete(self, key: str) -> None: ...


def entry_bytes(key: str, value: bytes) -> int:
    """What keeping ``value`` under ``key`` costs, as :class:`LocalCache` counts it."""
    return len(key) + len(value) + ENTRY_OVERHEAD_BYTES


class LocalCache:
    """A thread-safe LRU of at most ``max_bytes`` (keys, values and each entry's overhead), with
    optional per-entry expiry (monotonic clock). A value that alone is over the bound is not
    kept."""

    def __init__(self, max_bytes: int = DEFAULT_MAX_BYTES) -> None:
        if max_bytes < 1:
            raise ValueError(f"a cache of {max_bytes} bytes")
        self._entries: OrderedDict[str, tuple[bytes, float | None]] = OrderedDict()
        self._lock = threading.Lock()
        self.max_bytes = max_bytes
        self._bytes = 0

    @property
    def size_bytes(self) -> int:
        """What the entries kept cost now (never over ``max_bytes``)."""
        return self._bytes

    def get(self, key: str) -> bytes | None:
        with self._lock:
            entry = self._entries.get(key)
            if entry is None:
                return None
            value, expires_at = entry
            if expires_at is not None and time.monotonic() >= expires_at:
                self._remove(key)
                return None
            self._entries.move_to_end(key)
            return value

    def get_many(self, keys: list[str]) -> list[bytes | None]:
        return [self.get(key) for key in keys]

    def set(self, key: str, value: bytes, ttl_s: float | None = None) -> None:
        expires_at = None if ttl_s is None else time.monotonic() + ttl_s
        cost = entry_bytes(key, value)
        with self._lock:
            self._remove(key)
            if cost > self.max_bytes:
                return
            self._entries[key] = (value, expires_at)
            self._bytes += cost
            while self._bytes > self.max_bytes:
                oldest, (old_value, _) = self._entries.popitem(last=False)
                self._bytes -= entry_bytes(oldest, old_value)

    def delete(self, key: str) -> None:
        with self._lock:
            self._remove(key)

    def _remove(self, key: str) -> None:
        """Drops ``key``'s entry if there is one (the lock held)."""
        entry = self._entries.pop(key, None)
        if entry is not None:
            self._bytes -= entry_bytes(key, entry[0])
