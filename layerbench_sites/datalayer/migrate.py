"""The data layer's schema, created and migrated by Alembic on any of the three databases.

    upgrade(url)             to the newest revision (creating the schema in an empty database)
    downgrade(url, "base")   back, to nothing
    current_revision(url)    where a database is

``url`` is what layerbench hands out (``postgresql://…``, ``mysql://…``) or a SQLite file's
path. The revisions are in ``migrations/versions``; each creates the tables of its own revision
(``entities.SCHEMA_V1``, …) through the dialect's generator, since the trigger languages differ.
"""

from pathlib import Path

import sqlalchemy
from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from sqlalchemy.engine import Engine

from layerbench.services.urls import ServiceUrl

MIGRATIONS = Path(__file__).parent / "migrations"


def sqlalchemy_url(url: str | Path) -> str:
    """The SQLAlchemy URL (with its driver) of a layerbench database URL or a SQLite path."""
    text = str(url)
    if "://" not in text:
        return f"sqlite:///{text}"
    parsed = ServiceUrl.parse(text)
    drivers = {"postgres": "postgresql+psycopg", "mariadb": "mysql+pymysql"}
    if parsed.kind not in drivers:
        raise ValueError(f"{text!r} is not a database")
    rest = text.split("://", 1)[1]
    query = "?charset=utf8mb4" if parsed.kind == "mariadb" else ""
    return f"{drivers[parsed.kind]}://{rest}{query}"


def engine_for(url: str | Path) -> Engine:
    """A SQLAlchemy engine for a layerbench database URL or a SQLite path, without a pool
    (migrations connect once)."""
    return sqlalchemy.create_engine(sqlalchemy_url(url), poolclass=sqlalchemy.pool.NullPool)


def _config(connection: sqlalchemy.Connection, audit: bool) -> Config:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.attributes["connection"] = connection
    config.attributes["audit"] = audit
    return config


def upgrade(url: str | Path, revision: str = "head", audit: bool = True) -> None:
    engine = engine_for(url)
    try:
        with engine.begin() as connection:
            command.upgrade(_config(connection, audit), revision)
    finally:
        engine.dispose()


def downgrade(url: str | Path, revision: str = "base") -> None:
    engine = engine_for(url)
    try:
        with engine.begin() as connection:
            command.downgrade(_config(connection, audit=True), revision)
    finally:
        engine.dispose()


def current_revision(url: str | Path) -> str | None:
    engine = engine_for(url)
    try:
        with engine.connect() as connection:
            return MigrationContext.configure(connection).get_current_revision()
    finally:
        engine.dispose()
