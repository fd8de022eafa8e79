"""The bare application's full-ladder rungs on real services, each one round trip through the
client library the seed used or its successor:

memcached    a get through pymemcache                          (+ memcached)
redis        a GET through redis-py                            (+ Redis)
mariadb-raw  the row through the raw C driver, MySQLdb._mysql  (+ MariaDB)
mariadb      the row through its DB-API, MySQLdb               (+ DB-API)
orm-mariadb  the row through the SQLAlchemy ORM over MySQLdb   (+ ORM)
postgres     the row through psycopg 3                         (PostgreSQL)
couchdb      the row as a document, GET over HTTP kept alive   (CouchDB)

A rung exists only when its service's URL is configured; the rung data is the lab's to seed
(a missing row or key is an error, never a fast empty answer).
"""

from sqlalchemy import URL

from layerbench.rungs.definitions import (
    COUCHDB,
    MARIADB,
    MARIADB_RAW,
    MEMCACHED,
    ORM_MARIADB,
    POSTGRES,
    REDIS,
)
from layerbench.rungs.rung_data import (
    HELLO_CACHE_KEY,
    HELLO_ID,
    HELLO_SELECT_FORMAT,
    HELLO_SELECT_LITERAL,
    MissingRungDataError,
)
from layerbench.rungs.service_clients import (
    TIMEOUT_S,
    couchdb_client,
    mariadb_arguments,
    mariadb_connection,
    memcached_client,
    postgres_connection,
)
from layerbench.services.redis import redis_client
from layerbench_sites.app.app_config import ServiceUrls
from layerbench_sites.app.couchdb_rung_handler import read_hello_document
from layerbench_sites.app.models import Hello
from layerbench_sites.app.per_thread import PerThread
from layerbench_sites.app.process_engine import ProcessEngine
from layerbench_sites.app.rung_handlers import TEXT, Handler, Response


def _found(value: bytes | None, where: str) -> bytes:
    if value is None:
        raise MissingRungDataError(where)
    return value


def mysqldb_orm_url(url: str) -> URL:
    """SQLAlchemy's URL of the MariaDB at ``url`` through MySQLdb, the driver of the rungs
    above (the site's own engine uses PyMySQL)."""
    arguments = mariadb_arguments(url)
    return URL.create(
        "mysql+mysqldb",
        username=arguments["user"],
        password=arguments["password"] or None,
        host=arguments["host"],
        port=arguments["port"],
        database=arguments["database"] or None,
        query={"charset": "utf8mb4"},
    )


class ServiceRungs:
    def __init__(self, urls: ServiceUrls) -> None:
        self._handlers: dict[str, Handler] = {}
        if memcached_url := urls.memcached:
            self._memcached = PerThread(lambda: memcached_client(memcached_url))
            self._handlers[MEMCACHED.name] = self.memcached
        if redis_url := urls.redis:
            # redis-py's client is a pool shared by threads; per thread, as the others.
            self._redis = PerThread(lambda: redis_client(redis_url, TIMEOUT_S))
            self._handlers[REDIS.name] = self.redis
        if mariadb_url := urls.mariadb:
            from MySQLdb import _mysql  # the databases extra's, imported where used

            arguments = mariadb_arguments(mariadb_url)
            self._mysql_raw = PerThread(lambda: _mysql.connect(**arguments))  # type: ignore[no-untyped-call]
            self._mysql = PerThread(lambda: mariadb_connection(mariadb_url))
            self._handlers[MARIADB_RAW.name] = self.mariadb_raw
            self._handlers[MARIADB.name] = self.mariadb
            self._orm_mariadb = ProcessEngine(mysqldb_orm_url(mariadb_url))
            self._handlers[ORM_MARIADB.name] = self.orm_mariadb
        if postgres_url := urls.postgres:
            self._postgres = PerThread(lambda: postgres_connection(postgres_url))
            self._handlers[POSTGRES.name] = self.postgres
        if couchdb_url := urls.couchdb:
            self._couchdb = PerThread(lambda: couchdb_client(couchdb_url))
            self._handlers[COUCHDB.name] = self.couchdb

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

    def orm_mariadb(self) -> Response:
        with self._orm_mariadb.session() as session:
            hello = session.get(Hello, HELLO_ID)
            value = hello.value.encode() if hello is not None else None
        return "200 OK", TEXT, _found(value, "MariaDB")

    def postgres(self) -> Response:
        row = self._postgres.get().execute(HELLO_SELECT_FORMAT, (HELLO_ID,)).fetchone()
        return "200 OK", TEXT, _found(str(row[0]).encode() if row else None, "PostgreSQL")

    def couchdb(self) -> Response:
        return read_hello_document(self._couchdb.get())
