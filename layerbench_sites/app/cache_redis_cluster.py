"""The cache backend on a Redis Cluster (redis-py's cluster client, which learns the nodes from
the one named and sends each key to the master of its slot): the Redis backend, but several
keys are read with one request per node that holds some of them (MGET alone refuses keys of
different slots)."""

from typing import TYPE_CHECKING, cast

from layerbench.services.redis_cluster import cluster_client
from layerbench.services.urls import ServiceUrl
from layerbench_sites.app.cache_redis import RedisCache

if TYPE_CHECKING:  # redis-py is the databases extra's, imported where used
    import redis


class RedisClusterCache(RedisCache):
    @staticmethod
    def connect(url: str, timeout_s: float) -> "redis.Redis | redis.RedisCluster":
        parsed = ServiceUrl.parse(url)
        return cluster_client(f"redis://{parsed.host}:{parsed.port}/0", timeout_s)

    def read_many(self, keys: list[str]) -> object:
        client = cast("redis.RedisCluster", self._client)  # connect()'s
        return client.mget_nonatomic(keys)
