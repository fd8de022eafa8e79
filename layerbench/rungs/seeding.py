"""The rung data in the full ladder's services, put in place before the ladder starts its
servers: the seed's row ``(1, 'Hello world!')`` in MariaDB (InnoDB) and PostgreSQL, the same
value under one key in memcached and Redis, and as a document in CouchDB. (The embedded
default's SQLite file is :mod:`layerbench.rungs.sqlite_file`.)"""

from collections.abc import Callable

from layerbench.errors import LayerbenchError
from layerbench.rungs.rung_data import (
    HELLO_CACHE_KEY,
    HELLO_COUCHDB_DATABASE,
    HELLO_DOCUMENT_FIELD,
    HELLO_DOCUMENT_PATH,
    HELLO_ID,
    HELLO_INSERT_FORMAT,
    HELLO_TABLE_DDL,
    HELLO_TABLE_DDL_MARIADB,
    HELLO_VALUE,
)
from layerbench.rungs.service_clients import (
    couchdb_client,
    mariadb_connection,
    memcached_client,
    postgres_connection,
)
from layerbench.services.redis import redis_client


def seed_mariadb(url: str) -> None:
    connection = mariadb_connection(url)
    try:
        with connection.cursor() as cursor:
            cursor.execute(HELLO_TABLE_DDL_MARIADB)
            cursor.execute(HELLO_INSERT_FORMAT, (HELLO_ID, HELLO_VALUE))
    finally:
        connection.close()  # type: ignore[no-untyped-call]


def seed_postgres(url: str) -> None:
    with postgres_connection(url) as connection:
        connection.execute(HELLO_TABLE_DDL)
        connection.execute(HELLO_INSERT_FORMAT, (HELLO_ID, HELLO_VALUE))


def seed_memcached(url: str) -> None:
    client = memcached_client(url)
    try:
        client.set(HELLO_CACHE_KEY, HELLO_VALUE.encode(), noreply=False)
    finally:
        client.close()


def seed_redis(url: str) -> None:
    with redis_client(url) as client:
        client.set(HELLO_CACHE_KEY, HELLO_VALUE.encode())


def seed_couchdb(url: str) -> None:
    """The database, then the row as its document (a database already there is kept)."""
    client = couchdb_client(url)
    try:
        status, answer = client.request("PUT", f"/{HELLO_COUCHDB_DATABASE}")
        if status not in (201, 412):  # 412: it exists
            raise SeedingError(f"CouchDB did not create the database: HTTP {status} {answer}")
        document = {HELLO_DOCUMENT_FIELD: HELLO_VALUE}
        status, answer = client.request("PUT", HELLO_DOCUMENT_PATH, document)
        if status != 201:
            raise SeedingError(f"CouchDB did not store the document: HTTP {status} {answer}")
    finally:
        client.close()


class SeedingError(LayerbenchError):
    """A service refused the rung data."""


def seed_upstream(url: str) -> None:
    """The upstream rung's delaying server holds no data: it answers every request alike."""


SEEDERS: dict[str, Callable[[str], None]] = {
    "mariadb": seed_mariadb,
    "postgres": seed_postgres,
    "memcached": seed_memcached,
    "redis": seed_redis,
    "couchdb": seed_couchdb,
    "upstream": seed_upstream,
}
