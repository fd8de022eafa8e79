"""The rung data in the full ladder's services, put in place before the ladder starts its
servers: the seed's row ``(1, 'Hello world!')`` in MariaDB (InnoDB) and PostgreSQL, the same
value under one key in memcached and Redis. (The embedded default's SQLite file is
:mod:`layerbench.rungs.sqlite_file`.)"""

from collections.abc import Callable

from layerbench.rungs.rung_data import (
    HELLO_CACHE_KEY,
    HELLO_ID,
    HELLO_INSERT_FORMAT,
    HELLO_TABLE_DDL,
    HELLO_TABLE_DDL_MARIADB,
    HELLO_VALUE,
)
from layerbench.rungs.service_clients import (
    mariadb_connection,
    memcached_client,
    postgres_connection,
    redis_client,
)


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


SEEDERS: dict[str, Callable[[str], None]] = {
    "mariadb": seed_mariadb,
    "postgres": seed_postgres,
    "memcached": seed_memcached,
    "redis": seed_redis,
}
