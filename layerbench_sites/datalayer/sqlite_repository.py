"""The data layer on SQLite: its schema created in a file, connections as the repository needs them,
and the repository on the SQLite dialect."""

import sqlite3
from collections.abc import Callable
from pathlib import Path

from layerbench_sites.datalayer import migrate
from layerbench_sites.datalayer.repository import Repository
from layerbench_sites.datalayer.sqlite_dialect import SqliteDialect
from layerbench_sites.ids.generate import new_number

BUSY_TIMEOUT_S = 30.0


def create_schema(path: Path, audit: bool = True) -> None:
    """The newest schema in a new (or older) SQLite file, in WAL mode."""
    connection = sqlite3.connect(path)
    try:
        connection.execute("PRAGMA journal_mode=WAL")
    finally:
        connection.close()
    migrate.upgrade(path, audit=audit)


def connect(path: Path) -> sqlite3.Connection:
    """A connection as the repository needs it: autocommit (the repository begins its transactions),
    foreign keys on, waiting up to 30 s for a busy writer; usable from any thread, one at a
    time (a pool hands it from thread to thread)."""
    connection = sqlite3.connect(
        path, isolation_level=None, timeout=BUSY_TIMEOUT_S, check_same_thread=False
    )
    connection.execute("PRAGMA foreign_keys = ON")
    return connection


class SqliteRepository(Repository):
    def __init__(
        self, connection: sqlite3.Connection, new_numid: Callable[[], int] = new_number
    ) -> None:
        super().__init__(connection, SqliteDialect(), new_numid)
