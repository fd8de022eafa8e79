"""The data layer's schema on SQLite: tables, the ``ids`` registry and its triggers, and the
audit triggers that write ``history``. Generated from a set of ``entities`` tables (the
migrations pass the set of their revision), one statement at a time.

numids are stored as signed 64-bit integers (``numids.to_signed``). SQLite has no session
variables: the application names the acting user of a write transaction in the one-row table
``audit_actor`` and clears it before commit (SQLite runs one write transaction at a time, so the
row belongs to that transaction); a write without it, raw SQL behind the application's back, is
recorded with a NULL actor: unattributed, never lost.
"""

from layerbench_sites.datalayer.create_table import create_table
from layerbench_sites.datalayer.entities import ColumnType, Table, added_columns

REGISTRY_DDL = [
    """CREATE TABLE ids (
    numid INTEGER PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    prettyid TEXT UNIQUE,
    kind TEXT NOT NULL
)""",
    """CREATE TRIGGER ids_keep_identity BEFORE UPDATE ON ids
WHEN NEW.numid IS NOT OLD.numid OR NEW.id IS NOT OLD.id OR NEW.kind IS NOT OLD.kind
    OR (OLD.prettyid IS NOT NULL AND NEW.prettyid IS NOT OLD.prettyid)
BEGIN
    SELECT RAISE(ABORT, 'ids: a registered id cannot change');
END""",
]

AUDIT_DDL = [
    """CREATE TABLE history (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    table_name TEXT NOT NULL,
    row_key TEXT NOT NULL,
    operation TEXT NOT NULL CHECK (operation IN ('insert', 'update', 'delete')),
    changed_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    actor TEXT,
    old_values TEXT,
    new_values TEXT
)""",
    "CREATE INDEX history_by_row ON history (table_name, row_key, seq)",
    """CREATE TABLE audit_actor (
    slot INTEGER PRIMARY KEY CHECK (slot = 1),
    actor TEXT NOT NULL
)""",
]

ENTITY_COLUMNS = (
    "numid INTEGER PRIMARY KEY",
    "id TEXT NOT NULL UNIQUE CHECK (length(id) = 13 AND id NOT GLOB '*[^0-9a-z]*')",
    "prettyid TEXT UNIQUE",
)
SQL_TYPES = {ColumnType.TEXT: "TEXT", ColumnType.NUMID: "INTEGER"}


def table_ddl(table: Table) -> str:
    return create_table(table, SQL_TYPES, ENTITY_COLUMNS)


def registry_triggers(table: Table) -> list[str]:
    t = table.name
    return [
        f"""CREATE TRIGGER {t}_register BEFORE INSERT ON {t}
BEGIN
    INSERT INTO ids (numid, id, prettyid, kind) VALUES (NEW.numid, NEW.id, NEW.prettyid, '{t}');
END""",
        f"""CREATE TRIGGER {t}_numid_fixed BEFORE UPDATE OF numid ON {t}
WHEN NEW.numid IS NOT OLD.numid
BEGIN
    SELECT RAISE(ABORT, '{t}: numid cannot change after creation');
END""",
        f"""CREATE TRIGGER {t}_id_fixed BEFORE UPDATE OF id ON {t} WHEN NEW.id IS NOT OLD.id
BEGIN
    SELECT RAISE(ABORT, '{t}: id cannot change after creation');
END""",
        f"""CREATE TRIGGER {t}_prettyid_once BEFORE UPDATE OF prettyid ON {t}
WHEN OLD.prettyid IS NOT NULL AND NEW.prettyid IS NOT OLD.prettyid
BEGIN
    SELECT RAISE(ABORT, '{t}: prettyid can be set once and never changed after');
END""",
        f"""CREATE TRIGGER {t}_prettyid_register AFTER UPDATE OF prettyid ON {t}
WHEN OLD.prettyid IS NULL AND NEW.prettyid IS NOT NULL
BEGIN
    UPDATE ids SET prettyid = NEW.prettyid WHERE numid = NEW.numid;
END""",
        f"""CREATE TRIGGER {t}_unregister AFTER DELETE ON {t}
BEGIN
    DELETE FROM ids WHERE numid = OLD.numid;
END""",
    ]


def values_json(table: Table, row: str) -> str:
    pairs = ", ".join(f"'{name}', {row}.{name}" for name in table.all_columns)
    return f"json_object({pairs})"


def row_key(table: Table, row: str) -> str:
    if table.is_entity:
        return f"{row}.id"
    return f"json_array({', '.join(f'{row}.{name}' for name in table.key)})"


def audit_triggers(table: Table) -> list[str]:
    t = table.name
    actor = "(SELECT actor FROM audit_actor WHERE slot = 1)"
    statements = []
    for operation, event, old, new in (
        ("insert", "INSERT", "NULL", values_json(table, "NEW")),
        ("update", "UPDATE", values_json(table, "OLD"), values_json(table, "NEW")),
        ("delete", "DELETE", values_json(table, "OLD"), "NULL"),
    ):
        key = row_key(table, "OLD" if operation == "delete" else "NEW")
        statements.append(
            f"""CREATE TRIGGER {t}_audit_{operation} AFTER {event} ON {t}
BEGIN
    INSERT INTO history (table_name, row_key, operation, actor, old_values, new_values)
    VALUES ('{t}', {key}, '{operation}', {actor}, {old}, {new});
END"""
        )
    return statements


def schema_statements(tables: tuple[Table, ...], audit: bool = True) -> list[str]:
    """The whole schema, a statement each; ``audit=False`` leaves out the audit triggers (to
    measure what they cost)."""
    statements = [*REGISTRY_DDL, *AUDIT_DDL]
    for table in tables:
        statements.append(table_ddl(table))
        if table.is_entity:
            statements += registry_triggers(table)
        if audit:
            statements += audit_triggers(table)
    return statements


def drop_statements(tables: tuple[Table, ...]) -> list[str]:
    """Everything ``schema_statements`` made, gone (a table takes its triggers with it)."""
    dependants_first = [table.name for table in reversed(tables)]
    return [f"DROP TABLE {name}" for name in [*dependants_first, "audit_actor", "history", "ids"]]


def add_columns_statements(before: Table, after: Table, audit: bool = True) -> list[str]:
    """``before`` becomes ``after`` (nullable columns added); the audit triggers, which name
    every column, are made again."""
    statements = [
        f"ALTER TABLE {after.name} ADD COLUMN {column.name} {SQL_TYPES[column.type]}"
        for column in added_columns(before, after)
    ]
    return statements + _remake_audit(after, audit)


def drop_columns_statements(after: Table, before: Table, audit: bool = True) -> list[str]:
    """Back from ``after`` to ``before``."""
    statements = [
        f"ALTER TABLE {after.name} DROP COLUMN {column.name}"
        for column in added_columns(before, after)
    ]
    return _drop_audit(after) + statements + (audit_triggers(before) if audit else [])


def _drop_audit(table: Table) -> list[str]:
    return [
        f"DROP TRIGGER IF EXISTS {table.name}_audit_{operation}"
        for operation in ("insert", "update", "delete")
    ]


def _remake_audit(table: Table, audit: bool) -> list[str]:
    return _drop_audit(table) + (audit_triggers(table) if audit else [])
