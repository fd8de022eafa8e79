"""The backing services layerbench can start, by name, and how to probe each kind by URL."""

from collections.abc import Callable

from layerbench.errors import ConfigError
from layerbench.services.couchdb import CouchdbService, probe_couchdb
from layerbench.services.galera import GaleraService
from layerbench.services.mariadb import MariadbService, probe_mariadb
from layerbench.services.memcached import MemcachedService, probe_memcached
from layerbench.services.memcached_pool import MemcachedPoolService
from layerbench.services.postgres import PostgresService, probe_postgres
from layerbench.services.redis import RedisService, probe_redis
from layerbench.services.redis_cluster import RedisClusterService, probe_redis_cluster
from layerbench.services.service import ManagedService
from layerbench.services.upstream import UpstreamService
from layerbench.words import did_you_mean

SERVICES: dict[str, type[ManagedService]] = {
    service.name: service
    for service in (
        PostgresService,
        MariadbService,
        GaleraService,
        MemcachedService,
        MemcachedPoolService,
        RedisService,
        RedisClusterService,
        CouchdbService,
    )
}
PROBES: dict[str, Callable[[str], None]] = {
    "postgres": probe_postgres,
    "mariadb": probe_mariadb,
    "memcached": probe_memcached,
    "redis": probe_redis,
    "redis-cluster": probe_redis_cluster,
    "couchdb": probe_couchdb,
}


# What a rung needs started besides the backing services: the upstream rung's delaying server
# (not a store: ``services up`` and ``services check`` leave it out).
RUNG_HELPERS: dict[str, type[ManagedService]] = {UpstreamService.name: UpstreamService}


def service_class(name: str) -> type[ManagedService]:
    try:
        return SERVICES[name] if name in SERVICES else RUNG_HELPERS[name]
    except KeyError:
        raise ConfigError(
            did_you_mean(
                f"no service named {name!r}",
                name,
                SERVICES,
                f"the services are {', '.join(SERVICES)}",
            )
        ) from None
