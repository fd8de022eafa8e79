"""The embedded default database: a SQLite file seeded with the rung data."""

import sqlite3
from pathlib import Path

from layerbench.rungs.rung_data import HELLO_ID, HELLO_INSERT, HELLO_TABLE_DDL, HELLO_VALUE

DATABASE_FILE = "layerbench.sqlite3"


def create_seeded_database(directory: Path) -> Path:
    """Create ``directory/layerbench.sqlite3`` holding the rung data; return its path."""
    path = directory / DATABASE_FILE
    with sqlite3.connect(path) as connection:
        connection.execute("PRAGMA journal_mode=WAL")
        connection.execute(HELLO_TABLE_DDL)
        connection.execute(HELLO_INSERT, (HELLO_ID, HELLO_VALUE))
    connection.close()
    return path
