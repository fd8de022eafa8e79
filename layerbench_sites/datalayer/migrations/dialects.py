"""What a migration needs from each database: its schema generator and how to run raw DDL.

DDL goes straight to the driver's cursor, inside the migration's transaction: trigger bodies
are full of characters (``%``, ``:``) that SQLAlchemy's and the drivers' parameter syntax would
otherwise try to read.
"""

from typing import Any

from alembic import op

from layerbench_sites.datalayer import (
    mariadb_schema,
    postgres_schema,
    sqlite_rebuild,
    sqlite_schema,
)
from layerbench_sites.datalayer.entities import Table

GENERATORS: dict[str, Any] = {
    "sqlite": sqlite_schema,
    "postgresql": postgres_schema,
    "mysql": mariadb_schema,
    "mariadb": mariadb_schema,
}


def generator() -> Any:
    """The schema module of the database the migration runs on."""
    name = op.get_bind().dialect.name
    try:
        return GENERATORS[name]
    except KeyError:
        raise RuntimeError(f"no schema for the {name} database") from None


def run(statements: list[str]) -> None:
    cursor = _cursor()
    try:
        for statement in statements:
            cursor.execute(statement)
    finally:
        cursor.close()


def _cursor() -> Any:
    return op.get_bind().connection.driver_connection.cursor()  # type: ignore[union-attr]


def create(tables: tuple[Table, ...], audit: bool) -> None:
    run(generator().schema_statements(tables, audit=audit))


def drop(tables: tuple[Table, ...]) -> None:
    run(generator().drop_statements(tables))


def add_columns(before: Table, after: Table, audit: bool) -> None:
    run(generator().add_columns_statements(before, after, audit=audit))


def drop_columns(after: Table, before: Table, audit: bool) -> None:
    run(generator().drop_columns_statements(after, before, audit=audit))


def change_nullability(before: Table, after: Table) -> None:
    """``before`` becomes ``after``, whose columns differ in being nullable or not. SQLite
    cannot alter a column's NOT NULL: the table is rebuilt (its triggers and indexes kept)."""
    if op.get_bind().dialect.name != "sqlite":
        run(generator().nullability_statements(before, after))
        return
    cursor = _cursor()
    try:
        sqlite_rebuild.rebuild(cursor, after)
    finally:
        cursor.close()
