"""Connection URLs of backing services: what layerbench hands out, and what a user may give
instead of a throwaway instance.

    postgresql://USER[:PASSWORD]@HOST:PORT/DATABASE
    mysql://USER[:PASSWORD]@HOST:PORT/DATABASE      (mariadb:// is accepted as the same)
    memcached://HOST:PORT
    redis://HOST:PORT[/DB]
    redis-cluster://HOST:PORT                        (any node of a Redis Cluster)
    http://[USER:PASSWORD@]HOST:PORT                 (CouchDB's HTTP API)
"""

import re
from dataclasses import dataclass
from urllib.parse import unquote, urlsplit

from layerbench.errors import ConfigError

KIND_BY_SCHEME = {
    "postgresql": "postgres",
    "postgres": "postgres",
    "mysql": "mariadb",
    "mariadb": "mariadb",
    "memcached": "memcached",
    "redis": "redis",
    "redis-cluster": "redis-cluster",
    "http": "couchdb",
}
DEFAULT_PORTS = {
    "postgres": 5432,
    "mariadb": 3306,
    "memcached": 11211,
    "redis": 6379,
    "redis-cluster": 6379,
    "couchdb": 5984,
}


@dataclass(frozen=True)
class ServiceUrl:
    kind: str
    host: str
    port: int
    user: str | None = None
    password: str | None = None
    database: str | None = None

    @classmethod
    def parse(cls, text: str) -> "ServiceUrl":
        parts = urlsplit(text)
        kind = KIND_BY_SCHEME.get(parts.scheme)
        if kind is None:
            known = ", ".join(f"{scheme}://" for scheme in KIND_BY_SCHEME)
            raise ConfigError(f"{text!r} is not a service URL; it starts with one of {known}")
        if not parts.hostname:
            raise ConfigError(f"{text!r} names no host")
        try:
            port = parts.port or DEFAULT_PORTS[kind]
        except ValueError:
            raise ConfigError(f"{text!r} has a port that is not a number from 1 to 65535") from None
        database = parts.path.lstrip("/") or None
        if kind == "redis" and database is not None and not re.fullmatch(r"[0-9]{1,4}", database):
            raise ConfigError(f"{text!r}: a Redis database is a number, not {database!r}")
        return cls(
            kind=kind,
            host=parts.hostname,
            port=port,
            user=unquote(parts.username) if parts.username else None,
            password=unquote(parts.password) if parts.password else None,
            database=database,
        )

    @property
    def redis_db(self) -> int:
        return int(self.database or 0)
