"""The cache backend on Redis (redis-py, whose connection pool is shared by threads)."""

import math
from typing import TYPE_CHECKING

from layerbench.services.redis import redis_client

if TYPE_CHECKING:  # redis-py is the databases extra's, imported where used
    import redis


class RedisCache:
    def __init__(self, url: str, timeout_s: float = 2.0) -> None:
        self._client: redis.Redis | redis.RedisCluster = self.connect(url, timeout_s)

    @staticmethod
    def connect(url: str, timeout_s: float) -> "redis.Redis | redis.RedisCluster":
        return redis_client(url, timeout_s)

    def read_many(self, keys: list[str]) -> object:
        """The values of ``keys`` as the server answers them, in their order."""
        return self._client.mget(keys)

    def get(self, key: str) -> bytes | None:
        value = self._client.get(key)
        if value is None or isinstance(value, bytes):
            return value
        raise TypeError(f"Redis answered {type(value).__name__} for a cache entry")

    def get_many(self, keys: list[str]) -> list[bytes | None]:
        if not keys:
            return []
        values = self.read_many(keys)
        if isinstance(values, list) and all(v is None or isinstance(v, bytes) for v in values):
            return values
        raise TypeError("Redis answered something other than bytes for a cache entry")

    def set(self, key: str, value: bytes, ttl_s: float | None = None) -> None:
        expire_ms = None if ttl_s is None else max(1, math.ceil(ttl_s * 1000))
        self._client.set(key, value, px=expire_ms)

    def delete(self, key: str) -> None:
        self._client.delete(key)

    def close(self) -> None:
        self._client.close()
