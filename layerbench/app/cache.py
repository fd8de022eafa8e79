"""The embedded cache backend: an in-process key/value store with expiry.

It answers the ``cache`` rung (the seed's memcached lookup, without the network); memcached and
Redis backends with the same interface come later.
"""

import threading
import time
from collections import OrderedDict
from typing import Protocol


class CacheBackend(Protocol):
    def get(self, key: str) -> bytes | None: ...

    def get_many(self, keys: list[str]) -> list[bytes | None]:
        """The values of ``keys``, in order, in one round trip."""
        ...

    def set(self, key: str, value: bytes, ttl_s: float | None = None) -> None: ...

    def delete(self, key: str) -> None: ...


class LocalCache:
    """A bounded, thread-safe LRU with optional per-entry expiry (monotonic clock)."""

    def __init__(self, max_entries: int = 10_000) -> None:
        self._entries: OrderedDict[str, tuple[bytes, float | None]] = OrderedDict()
        self._lock = threading.Lock()
        self._max_entries = max_entries

    def get(self, key: str) -> bytes | None:
        with self._lock:
            entry = self._entries.get(key)
            if entry is None:
                return None
            value, expires_at = entry
            if expires_at is not None and time.monotonic() >= expires_at:
                del self._entries[key]
                return None
            self._entries.move_to_end(key)
            return value

    def get_many(self, keys: list[str]) -> list[bytes | None]:
        return [self.get(key) for key in keys]

    def set(self, key: str, value: bytes, ttl_s: float | None = None) -> None:
        expires_at = None if ttl_s is None else time.monotonic() + ttl_s
        with self._lock:
            self._entries[key] = (value, expires_at)
            self._entries.move_to_end(key)
            while len(self._entries) > self._max_entries:
                self._entries.popitem(last=False)

    def delete(self, key: str) -> None:
        with self._lock:
            self._entries.pop(key, None)
