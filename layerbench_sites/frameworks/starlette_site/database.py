"""The ASGI sites' databases through async SQLAlchemy 2: the rung data (``hello``: the ORM URL on
the full ladder, else the seeded SQLite file) and the site's (videos and comments), each an async
engine that opens no connection until a request needs one (in the event loop that serves it, so
a server may import the application before it forks its workers). SQLite through aiosqlite,
PostgreSQL through psycopg 3's async mode, MariaDB through aiomysql."""

from typing import Any

from sqlalchemy import event
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine

from layerbench_sites.datalayer.dialect import Dialect
from layerbench_sites.datalayer.migrate import sqlalchemy_url
from layerbench_sites.datalayer.open_repository import is_sqlite
from layerbench_sites.datalayer.sqlite_repository import BUSY_TIMEOUT_S
from layerbench_sites.frameworks.site_dialect import dialect_named

# The synchronous driver's SQLAlchemy prefix → its async driver's.
ASYNC_DRIVERS = {
    "sqlite://": "sqlite+aiosqlite://",
    "postgresql+psycopg://": "postgresql+psycopg_async://",
    "mysql+pymysql://": "mysql+aiomysql://",
}


def async_url(url: str) -> str:
    """The async SQLAlchemy URL of a layerbench database URL or a SQLite path."""
    sync = sqlalchemy_url(url)
    for prefix, replacement in ASYNC_DRIVERS.items():
        if sync.startswith(prefix):
            return replacement + sync.removeprefix(prefix)
    raise ValueError(f"{url!r} has no async driver here")


def rung_engine(url: str) -> AsyncEngine:
    return create_async_engine(async_url(url))


def site_engine(url: str) -> AsyncEngine:
    """The site's database: a SQLite file as the data layer uses it (foreign keys on, a busy
    writer waited for), or a server database."""
    if not is_sqlite(url):
        return create_async_engine(async_url(url))
    engine = create_async_engine(async_url(url), connect_args={"timeout": BUSY_TIMEOUT_S})
    event.listen(engine.sync_engine, "connect", _foreign_keys_on)
    return engine


def _foreign_keys_on(connection: Any, record: Any) -> None:
    cursor = connection.cursor()
    cursor.execute("PRAGMA foreign_keys = ON")
    cursor.close()


def dialect_of(engine: AsyncEngine) -> Dialect:
    return dialect_named(engine.dialect.name)
