"""A store on whichever database a URL names: a SQLite file's path (the embedded default), or a
``postgres://`` / ``mysql://`` URL as ``layerbench services`` hands out."""

from pathlib import Path

from layerbench.datalayer import mariadb_store, migrate, postgres_store, sqlite_store
from layerbench.datalayer.store import Store
from layerbench.services.urls import ServiceUrl


def is_sqlite(url: str) -> bool:
    return "://" not in url


def prepare(url: str) -> None:
    """The database at ``url`` brought to the newest schema (created if it is empty)."""
    if is_sqlite(url):
        sqlite_store.create_schema(Path(url))
    else:
        migrate.upgrade(url)


def open_store(url: str) -> Store:
    """A new connection to ``url`` and a store on it (one per thread: connections are not
    shared)."""
    if is_sqlite(url):
        return sqlite_store.SqliteStore(sqlite_store.connect(Path(url)))
    kind = ServiceUrl.parse(url).kind
    if kind == "postgres":
        return postgres_store.PostgresStore(postgres_store.connect(url))
    if kind == "mariadb":
        return mariadb_store.MariadbStore(mariadb_store.connect(url))
    raise ValueError(f"{url!r} is not a database URL (postgres://, mysql:// or a SQLite path)")
