"""The data layer's schema on MariaDB: the short-id codec in SQL (``CONV``), the ``ids`` registry
and its triggers, and audit triggers writing ``history``. Generated from a set of ``entities``
tables (the migrations pass the set of their revision).

numids are ``BIGINT UNSIGNED``: the 64-bit number as it is. Each entity row's ``id`` is checked
against its ``numid`` by a CHECK constraint with the built-in codec. A trigger aborts with
``SIGNAL SQLSTATE '45000'`` (where the seed called a procedure that does not exist to abort).

The acting user of a transaction is the session variable ``@layerbench_actor``, set by the
application when the transaction begins and cleared when it ends (committed or rolled back); a
write made without it is recorded with a NULL actor.

InnoDB does not fire triggers for rows deleted by a foreign key's ``ON DELETE CASCADE``: so a
row's dependants are deleted by a trigger on the row instead, where their own triggers (the
registry, the history) do fire; the cascade then finds nothing left.
"""

from layerbench_sites.datalayer.entities import (
    ColumnType,
    Table,
    added_columns,
    nullability_changed,
)

ENCODE_SQL = "LPAD(LOWER(CONV({n}, 10, 36)), 13, '0')"

CODEC_SQL = [
    f"""CREATE FUNCTION encode_id(numid BIGINT UNSIGNED) RETURNS CHAR(13) CHARSET ascii
DETERMINISTIC NO SQL
RETURN {ENCODE_SQL.format(n="numid")}""",
    """CREATE FUNCTION decode_id(id VARCHAR(64)) RETURNS BIGINT UNSIGNED
DETERMINISTIC NO SQL
BEGIN
    DECLARE n BIGINT UNSIGNED;
    IF id IS NULL OR id NOT REGEXP BINARY '^[0-9a-z]{13}$' THEN
        SIGNAL SQLSTATE '22023' SET MESSAGE_TEXT = 'not a version-0 id';
    END IF;
    SET n = CAST(CONV(id, 36, 10) AS UNSIGNED);
    -- CONV saturates at 2**64-1: an id beyond it does not come back unchanged.
    IF BINARY encode_id(n) <> BINARY id THEN
        SIGNAL SQLSTATE '22003' SET MESSAGE_TEXT = 'id is beyond the largest id';
    END IF;
    RETURN n;
END""",
]

REGISTRY_SQL = [
    """CREATE TABLE ids (
    numid BIGINT UNSIGNED NOT NULL PRIMARY KEY,
    id CHAR(13) CHARSET ascii COLLATE ascii_bin NOT NULL UNIQUE KEY,
    prettyid VARCHAR(255) CHARSET utf8mb4 COLLATE utf8mb4_bin UNIQUE KEY,
    kind VARCHAR(64) NOT NULL
) ENGINE=InnoDB""",
    """CREATE TRIGGER ids_keep_identity BEFORE UPDATE ON ids FOR EACH ROW
BEGIN
    IF NOT (NEW.numid <=> OLD.numid) OR NOT (NEW.id <=> OLD.id) OR NOT (NEW.kind <=> OLD.kind)
       OR (OLD.prettyid IS NOT NULL AND NOT (NEW.prettyid <=> OLD.prettyid)) THEN
        SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'ids: a registered id cannot change';
    END IF;
END""",
]

AUDIT_SQL = [
    """CREATE TABLE history (
    seq BIGINT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY,
    table_name VARCHAR(64) NOT NULL,
    row_key VARCHAR(255) NOT NULL,
    operation ENUM('insert', 'update', 'delete') NOT NULL,
    changed_at DATETIME(6) NOT NULL,
    actor VARCHAR(255),
    old_values JSON,
    new_values JSON,
    KEY history_by_row (table_name, row_key, seq)
) ENGINE=InnoDB""",
]

SQL_TYPES = {
    ColumnType.TEXT: "TEXT CHARSET utf8mb4 COLLATE utf8mb4_bin",
    ColumnType.NUMID: "BIGINT UNSIGNED",
}


def table_ddl(table: Table) -> str:
    lines = []
    if table.is_entity:
        lines += [
            "numid BIGINT UNSIGNED NOT NULL PRIMARY KEY",
            "id CHAR(13) CHARSET ascii COLLATE ascii_bin NOT NULL UNIQUE KEY",
            "prettyid VARCHAR(255) CHARSET utf8mb4 COLLATE utf8mb4_bin UNIQUE KEY",
            f"CONSTRAINT {table.name}_id_is_numid"
            f" CHECK (BINARY id = BINARY {ENCODE_SQL.format(n='numid')})",
        ]
    for column in table.columns:
        line = f"{column.name} {SQL_TYPES[column.type]}"
        if not column.nullable:
            line += " NOT NULL"
        lines.append(line)
    for column in table.columns:
        if column.references:
            lines.append(
                f"FOREIGN KEY ({column.name}) REFERENCES {column.references} (numid)"
                " ON DELETE CASCADE"
            )
    for name in table.unique:
        # A TEXT column is unique on a prefix; names and tags are short.
        lines.append(f"UNIQUE KEY ({name}(255))")
    if not table.is_entity:
        lines.append(f"PRIMARY KEY ({', '.join(table.key)})")
    body = ",\n    ".join(lines)
    return f"CREATE TABLE {table.name} (\n    {body}\n) ENGINE=InnoDB"


def fail(message: str) -> str:
    return f"SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = '{message}';"


def registry_triggers(table: Table) -> list[str]:
    t = table.name
    return [
        f"""CREATE TRIGGER {t}_register BEFORE INSERT ON {t} FOR EACH ROW
INSERT INTO ids (numid, id, prettyid, kind) VALUES (NEW.numid, NEW.id, NEW.prettyid, '{t}')""",
        f"""CREATE TRIGGER {t}_registry_rules BEFORE UPDATE ON {t} FOR EACH ROW
BEGIN
    IF NOT (NEW.numid <=> OLD.numid) THEN
        {fail(f"{t}: numid cannot change after creation")}
    END IF;
    IF NOT (NEW.id <=> OLD.id) THEN
        {fail(f"{t}: id cannot change after creation")}
    END IF;
    IF NOT (NEW.prettyid <=> OLD.prettyid) THEN
        IF OLD.prettyid IS NOT NULL THEN
            {fail(f"{t}: prettyid can be set once and never changed after")}
        END IF;
        UPDATE ids SET prettyid = NEW.prettyid WHERE numid = NEW.numid;
    END IF;
END""",
        f"""CREATE TRIGGER {t}_unregister AFTER DELETE ON {t} FOR EACH ROW
DELETE FROM ids WHERE numid = OLD.numid""",
    ]


def dependants_trigger(table: Table, tables: tuple[Table, ...]) -> list[str]:
    """Delete the rows that reference ``table`` first, so that their triggers fire."""
    deletes = [
        f"DELETE FROM {other.name} WHERE {column.name} = OLD.numid;"
        for other in tables
        for column in other.columns
        if column.references == table.name
    ]
    if not deletes:
        return []
    body = "\n    ".join(deletes)
    return [
        f"""CREATE TRIGGER {table.name}_delete_dependants BEFORE DELETE ON {table.name}
FOR EACH ROW
BEGIN
    {body}
END"""
    ]


def values_json(table: Table, row: str) -> str:
    pairs = ", ".join(f"'{name}', {row}.{name}" for name in table.all_columns)
    return f"JSON_OBJECT({pairs})"


def row_key(table: Table, row: str) -> str:
    if table.is_entity:
        return f"{row}.id"
    return f"JSON_ARRAY({', '.join(f'{row}.{name}' for name in table.key)})"


def audit_triggers(table: Table) -> list[str]:
    t = table.name
    statements = []
    for operation, event, old, new in (
        ("insert", "INSERT", "NULL", values_json(table, "NEW")),
        ("update", "UPDATE", values_json(table, "OLD"), values_json(table, "NEW")),
        ("delete", "DELETE", values_json(table, "OLD"), "NULL"),
    ):
        key = row_key(table, "OLD" if operation == "delete" else "NEW")
        statements.append(
            f"""CREATE TRIGGER {t}_audit_{operation} AFTER {event} ON {t} FOR EACH ROW
INSERT INTO history (table_name, row_key, operation, changed_at, actor, old_values, new_values)
VALUES ('{t}', {key}, '{operation}', UTC_TIMESTAMP(6), @layerbench_actor, {old}, {new})"""
        )
    return statements


def schema_statements(tables: tuple[Table, ...], audit: bool = True) -> list[str]:
    """The whole schema, one statement each (MariaDB's protocol takes one at a time);
    ``audit=False`` leaves out the audit triggers (to measure what they cost)."""
    statements = [*CODEC_SQL, *REGISTRY_SQL, *AUDIT_SQL]
    for table in tables:
        statements.append(table_ddl(table))
        if table.is_entity:
            statements += registry_triggers(table)
        if audit:
            statements += audit_triggers(table)
    for table in tables:
        statements += dependants_trigger(table, tables)
    return statements


def drop_statements(tables: tuple[Table, ...]) -> list[str]:
    """Everything ``schema_statements`` made, gone (a table takes its triggers with it)."""
    names = ", ".join([*(table.name for table in reversed(tables)), "history", "ids"])
    return [
        f"DROP TABLE {names}",
        "DROP FUNCTION decode_id",
        "DROP FUNCTION encode_id",
    ]


def add_columns_statements(before: Table, after: Table, audit: bool = True) -> list[str]:
    """``before`` becomes ``after`` (nullable columns added); the audit triggers, which name
    every column, are made again."""
    statements = [
        f"ALTER TABLE {after.name} ADD COLUMN {column.name} {SQL_TYPES[column.type]}"
        for column in added_columns(before, after)
    ]
    return statements + _drop_audit(after) + (audit_triggers(after) if audit else [])


def drop_columns_statements(after: Table, before: Table, audit: bool = True) -> list[str]:
    """Back from ``after`` to ``before``."""
    statements = [
        f"ALTER TABLE {after.name} DROP COLUMN {column.name}"
        for column in added_columns(before, after)
    ]
    return _drop_audit(after) + statements + (audit_triggers(before) if audit else [])


def nullability_statements(before: Table, after: Table) -> list[str]:
    """``before`` becomes ``after``, whose columns differ in being nullable or not: each
    column is restated with its own type (the table keeps its triggers, which write NULL into
    the history's JSON as ``null``)."""
    return [
        f"ALTER TABLE {after.name} MODIFY {column.name} {SQL_TYPES[column.type]}"
        f" {'NULL' if column.nullable else 'NOT NULL'}"
        for column in nullability_changed(before, after)
    ]


def _drop_audit(table: Table) -> list[str]:
    return [
        f"DROP TRIGGER IF EXISTS {table.name}_audit_{operation}"
        for operation in ("insert", "update", "delete")
    ]
