"""The client libraries' connections to the full ladder's services, the ones the seed used or
their successors: the service rungs read the rung data through them, the seeding writes it."""

from typing import TYPE_CHECKING, Any

from layerbench.services.couchdb_client import CouchdbClient
from layerbench.services.urls import ServiceUrl

if TYPE_CHECKING:  # the databases extra's clients, imported where used (the core has none)
    import MySQLdb
    import psycopg
    from pymemcache.client.base import Client as MemcacheClient

TIMEOUT_S = 5.0


def memcached_client(url: str) -> "MemcacheClient":
    from pymemcache.client.base import Client as MemcacheClient

    parsed = ServiceUrl.parse(url)
    return MemcacheClient(
        (parsed.host, parsed.port), connect_timeout=TIMEOUT_S, timeout=TIMEOUT_S, no_delay=True
    )


def mariadb_arguments(url: str) -> dict[str, Any]:  # boundary: a driver's connect(**kwargs)
    """The arguments of ``MySQLdb.connect`` and of the raw driver's ``_mysql.connect``."""
    parsed = ServiceUrl.parse(url)
    return {
        "host": parsed.host,
        "port": parsed.port,
        "user": parsed.user or "root",
        "password": parsed.password or "",
        "database": parsed.database or "",
        "connect_timeout": int(TIMEOUT_S),
    }


def mariadb_connection(url: str) -> "MySQLdb.Connection":
    import MySQLdb

    return MySQLdb.connect(autocommit=True, **mariadb_arguments(url))


def couchdb_client(url: str) -> CouchdbClient:
    """One kept-alive HTTP connection to CouchDB's API (pouchdb-server or Apache CouchDB)."""
    return CouchdbClient(url, timeout_s=TIMEOUT_S)


def postgres_connection(url: str) -> "psycopg.Connection[tuple[Any, ...]]":
    import psycopg

    return psycopg.connect(url, autocommit=True, connect_timeout=int(TIMEOUT_S))
