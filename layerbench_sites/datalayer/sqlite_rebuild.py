"""A SQLite table made again to a new definition, the way SQLite documents it for what ALTER
TABLE cannot do (https://www.sqlite.org/lang_altertable.html, "Making Other Kinds Of Table
Schema Changes"): the new table created under another name, the rows copied, the old table
dropped, the new one renamed to its name, the old table's indexes and triggers made again from
their own stored SQL, and the foreign keys checked.

It needs foreign key enforcement off (a migration's connection has it off: SQLite's default),
or dropping the old table would delete the rows that reference it; and the PRAGMA cannot change
inside a transaction, so it is checked, not set. The whole rebuild is one savepoint: it happens
entirely or not at all.
"""

from dataclasses import replace
from typing import Any

from layerbench_sites.datalayer import sqlite_schema
from layerbench_sites.datalayer.entities import Table

SAVEPOINT = "table_rebuild"


class RebuildError(RuntimeError):
    pass


def rebuild(cursor: Any, after: Table) -> None:
    """``after.name`` becomes ``after``: same columns (as the data layer names them), a new
    definition."""
    cursor.execute("PRAGMA foreign_keys")
    if cursor.fetchone()[0]:
        raise RebuildError(f"rebuilding {after.name} needs foreign keys off on the connection")
    cursor.execute(f"SAVEPOINT {SAVEPOINT}")
    try:
        _rebuild(cursor, after)
    except BaseException:
        cursor.execute(f"ROLLBACK TO {SAVEPOINT}")
        cursor.execute(f"RELEASE {SAVEPOINT}")
        raise
    cursor.execute(f"RELEASE {SAVEPOINT}")


def _rebuild(cursor: Any, after: Table) -> None:
    name = after.name
    cursor.execute(
        "SELECT sql FROM sqlite_master WHERE tbl_name = ? AND type IN ('index', 'trigger')"
        " AND sql IS NOT NULL ORDER BY rowid",
        (name,),
    )
    kept = [sql for (sql,) in cursor.fetchall()]
    columns = ", ".join(after.all_columns)
    cursor.execute(sqlite_schema.table_ddl(replace(after, name=f"new_{name}")))
    cursor.execute(f"INSERT INTO new_{name} ({columns}) SELECT {columns} FROM {name}")
    cursor.execute(f"DROP TABLE {name}")
    cursor.execute(f"ALTER TABLE new_{name} RENAME TO {name}")
    for sql in kept:
        cursor.execute(sql)
    cursor.execute("PRAGMA foreign_key_check")
    broken = cursor.fetchall()
    if broken:
        raise RebuildError(f"rebuilding {name} broke foreign keys: {broken[:3]}")
