"""The data every rung reads, put in place before the ladder starts its servers: the seed's
row ``(1, 'Hello world!')`` in MariaDB (InnoDB) and PostgreSQL, the same value under one key
in memcached and Redis, and the demo site's video with its comments for the page rungs."""

from pathlib import Path

import MySQLdb
import psycopg

from layerbench.app.cache_memcached import MemcachedCache
from layerbench.app.cache_redis import RedisCache
from layerbench.rungs.rung_data import (
    HELLO_CACHE_KEY,
    HELLO_ID,
    HELLO_INSERT_FORMAT,
    HELLO_TABLE_DDL,
    HELLO_TABLE_DDL_MARIADB,
    HELLO_VALUE,
    PAGE_VIDEO_COMMENTS,
    PAGE_VIDEO_PRETTYID,
    PAGE_VIDEO_TITLE,
    WRITE_VIDEO_PRETTYID,
)
from layerbench.app.videos import Catalog
from layerbench.datalayer import migrate
from layerbench.datalayer.open_repository import open_repository
from layerbench.services.urls import ServiceUrl

ACTOR = "layerbench-lab"


def seed_mariadb(url: str) -> None:
    parsed = ServiceUrl.parse(url)
    connection = MySQLdb.connect(
        host=parsed.host,
        port=parsed.port,
        user=parsed.user or "root",
        password=parsed.password or "",
        database=parsed.database or "",
        autocommit=True,
    )
    try:
        with connection.cursor() as cursor:
            cursor.execute(HELLO_TABLE_DDL_MARIADB)
            cursor.execute(HELLO_INSERT_FORMAT, (HELLO_ID, HELLO_VALUE))
    finally:
        connection.close()  # type: ignore[no-untyped-call]


def seed_postgres(url: str) -> None:
    with psycopg.connect(url, autocommit=True) as connection:
        connection.execute(HELLO_TABLE_DDL)
        connection.execute(HELLO_INSERT_FORMAT, (HELLO_ID, HELLO_VALUE))


def seed_memcached(url: str) -> None:
    cache = MemcachedCache(url)
    try:
        cache.set(HELLO_CACHE_KEY, HELLO_VALUE.encode())
    finally:
        cache.close()


def seed_redis(url: str) -> None:
    RedisCache(url).set(HELLO_CACHE_KEY, HELLO_VALUE.encode())


def seed_site(database_url: str | Path) -> None:
    """The demo site's schema, the video the page rungs show with its comments, and the one the
    write rung comments on."""
    migrate.upgrade(database_url)
    catalog = Catalog(open_repository(str(database_url)))
    try:
        catalog.create_video(
            {
                "prettyid": PAGE_VIDEO_PRETTYID,
                "title": PAGE_VIDEO_TITLE,
                "url": "https://example.com/hello-world",
                "description": "The video every page rung shows.",
                "tags": ["hello", "layerbench"],
            },
            ACTOR,
        )
        catalog.create_video(
            {
                "prettyid": WRITE_VIDEO_PRETTYID,
                "title": "Comments welcome",
                "url": "https://example.com/w",
            },
            ACTOR,
        )
        for number in range(1, PAGE_VIDEO_COMMENTS + 1):
            catalog.create_comment(
                PAGE_VIDEO_PRETTYID,
                {"name": f"viewer {number}", "body": f"Comment number {number}."},
                ACTOR,
            )
    finally:
        catalog.repository.connection.close()


SEEDERS = {
    "mariadb": seed_mariadb,
    "postgres": seed_postgres,
    "memcached": seed_memcached,
    "redis": seed_redis,
}
