"""``CREATE TABLE`` for an ``entities`` table, as PostgreSQL and SQLite both write it: the
entity's own columns (numid, id, prettyid: each dialect's), then a line a column (its type, NOT
NULL, its foreign key inline), the unique columns, and a link table's composite key. MariaDB's
(foreign keys apart, a unique key on a prefix, ENGINE) is its own, in ``mariadb_schema``."""

from collections.abc import Mapping, Sequence

from layerbench_sites.datalayer.entities import ColumnType, Table


def create_table(
    table: Table, sql_types: Mapping[ColumnType, str], entity_columns: Sequence[str]
) -> str:
    """The statement, without a terminating semicolon; ``entity_columns`` lead an entity's."""
    lines = list(entity_columns) if table.is_entity else []
    for column in table.columns:
        line = f"{column.name} {sql_types[column.type]}"
        if not column.nullable:
            line += " NOT NULL"
        if column.references:
            line += f" REFERENCES {column.references} (numid) ON DELETE CASCADE"
        lines.append(line)
    for name in table.unique:
        lines.append(f"UNIQUE ({name})")
    if not table.is_entity:
        lines.append(f"PRIMARY KEY ({', '.join(table.key)})")
    body = ",\n    ".join(lines)
    return f"CREATE TABLE {table.name} (\n    {body}\n)"
