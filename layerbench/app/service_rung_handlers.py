"""The full ladder's rungs on real services, each one round trip through the client library
the seed used or its successor:

memcached    a get through pymemcache                          (+ memcached)
redis        a GET through redis-py                            (+ Redis)
mariadb-raw  the row through the raw C driver, MySQLdb._mysql  (+ MariaDB)
mariadb      the row through its DB-API, MySQLdb               (+ DB-API)
postgres     the row through psycopg 3                         (PostgreSQL)

A rung exists only when its service's URL is configured; the rung data is the lab's to seed
(a missing row or key is an error, never a fast empty answer).
"""

from typing import Any

import MySQLdb
import psycopg
import redis
from MySQLdb import _mysql
from pymemcache.client.base import Client as MemcacheClient

from layerbench.app.app_config import ServiceUrls
from layerbench.rungs.rung_data import (
    HELLO_CACHE_KEY,
    HELLO_ID,
    HELLO_SELECT_FORMAT,
    HELLO_SELECT_LITERAL,
)
from layerbench.app.per_thread import PerThread
from layerbench.app.rung_handlers import TEXT, Handler, Response
from layerbench.services.urls import ServiceUrl

TIMEOUT_S = 5.0


class MissingRungDataError(Exception):
    pass


def _mysql_arguments(url: str) -> dict[str, Any]:
    parsed = ServiceUrl.parse(url)
    return {
        "host": parsed.host,
        "port": parsed.port,
        "user": parsed.user or "root",
        "password": parsed.password or "",
        "database": parsed.database or "",
        "connect_timeout": int(TIMEOUT_S),
    }


def _found(value: bytes | None, where: str) -> bytes:
    if value is None:
        raise MissingRungDataError(f"the rung data is missing from {where}")
    return value


class ServiceRungs:
    def __init__(self, urls: ServiceUrls) -> None:
        self._handlers: dict[str, Handler] = {}
        if urls.memcached:
            memcached = ServiceUrl.parse(urls.memcached)
            self._memcached = PerThread(
                lambda: MemcacheClient(
                    (memcached.host, memcached.port),
                    connect_timeout=TIMEOUT_S,
                    timeout=TIMEOUT_S,
                    no_delay=True,
                )
            )
            self._handlers["memcached"] = self.memcached
        if urls.redis:
            redis_url = ServiceUrl.parse(urls.redis)
            # redis-py's client is a pool shared by threads; per thread, as the others.
            self._redis = PerThread(
                lambda: redis.Redis(
                    host=redis_url.host,
                    port=redis_url.port,
                    db=redis_url.redis_db,
                    password=redis_url.password,
                    socket_timeout=TIMEOUT_S,
                )
            )
            self._handlers["redis"] = self.redis
        if urls.mariadb:
            arguments = _mysql_arguments(urls.mariadb)
            self._mysql_raw = PerThread(lambda: _mysql.connect(**arguments))  # type: ignore[no-untyped-call]
            self._mysql = PerThread(lambda: MySQLdb.connect(autocommit=True, **arguments))
            self._handlers["mariadb-raw"] = self.mariadb_raw
            self._handlers["mariadb"] = self.mariadb
        if urls.postgres:
            postgres_url = urls.postgres
            self._postgres = PerThread(
                lambda: psycopg.connect(
                    postgres_url, autocommit=True, connect_timeout=int(TIMEOUT_S)
                )
            )
            self._handlers["postgres"] = self.postgres

    def handlers(self) -> dict[str, Handler]:
        return dict(self._handlers)

    def memcached(self) -> Response:
        value = self._memcached.get().get(HELLO_CACHE_KEY)
        return "200 OK", TEXT, _found(value, "memcached")

    def redis(self) -> Response:
        value = self._redis.get().get(HELLO_CACHE_KEY)
        return "200 OK", TEXT, _found(value if isinstance(value, bytes) else None, "Redis")

    def mariadb_raw(self) -> Response:
        connection = self._mysql_raw.get()
        connection.query(HELLO_SELECT_LITERAL)
        rows = connection.store_result().fetch_row()
        return "200 OK", TEXT, _found(rows[0][0] if rows else None, "MariaDB")

    def mariadb(self) -> Response:
        with self._mysql.get().cursor() as cursor:
            cursor.execute(HELLO_SELECT_FORMAT, (HELLO_ID,))
            row = cursor.fetchone()
        return "200 OK", TEXT, _found(row[0].encode() if row else None, "MariaDB")

    def postgres(self) -> Response:
        row = self._postgres.get().execute(HELLO_SELECT_FORMAT, (HELLO_ID,)).fetchone()
        return "200 OK", TEXT, _found(str(row[0]).encode() if row else None, "PostgreSQL")
