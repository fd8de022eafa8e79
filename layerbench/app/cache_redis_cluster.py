"""The cache backend on a Redis Cluster (redis-py's cluster client, which learns the nodes from
the one named and sends each key to the master of its slot). Several keys are read with one
request per node that holds some of them (MGET alone refuses keys of different slots)."""

import math

from layerbench.services.redis_cluster import cluster_client
from layerbench.services.urls import ServiceUrl


class RedisClusterCache:
    def __init__(self, url: str, timeout_s: float = 2.0) -> None:
        parsed = ServiceUrl.parse(url)
        self._client = cluster_client(f"redis://{parsed.host}:{parsed.port}/0", timeout_s)

    def get(self, key: str) -> bytes | None:
        value = self._client.get(key)
        if value is None or isinstance(value, bytes):
            return value
        raise TypeError(f"Redis answered {type(value).__name__} for a cache entry")

    def get_many(self, keys: list[str]) -> list[bytes | None]:
        if not keys:
            return []
        values = self._client.mget_nonatomic(keys)
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
