"""The Flask application's databases through SQLAlchemy 2: the rung data (``hello``; the ORM
URL on the full ladder, else the seeded SQLite file) and the site's (videos and comments), each
an engine that opens no connection until a request needs one (so a server may import the
application before it forks its workers), and the data layer's dialect of the site's."""

import sqlite3
from typing import Any

from sqlalchemy import Engine, create_engine, event

from layerbench_sites.datalayer.dialect import Dialect
from layerbench_sites.datalayer.migrate import sqlalchemy_url
from layerbench_sites.datalayer.open_repository import is_sqlite
from layerbench_sites.datalayer.sqlite_repository import BUSY_TIMEOUT_S
from layerbench_sites.frameworks.site_dialect import dialect_named


def rung_engine(url: str) -> Engine:
    return create_engine(sqlalchemy_url(url))


def site_engine(url: str) -> Engine:
    """The site's database: a SQLite file as the data layer uses it (foreign keys on, a busy
    writer waited for), or a server database."""
    if not is_sqlite(url):
        return create_engine(sqlalchemy_url(url))
    engine = create_engine(sqlalchemy_url(url), connect_args={"timeout": BUSY_TIMEOUT_S})
    event.listen(engine, "connect", _foreign_keys_on)
    return engine


def _foreign_keys_on(connection: sqlite3.Connection, record: Any) -> None:
    connection.execute("PRAGMA foreign_keys = ON")


def dialect_of(engine: Engine) -> Dialect:
    return dialect_named(engine.dialect.name)
