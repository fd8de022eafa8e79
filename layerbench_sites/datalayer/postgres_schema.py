"""The data layer's schema on PostgreSQL: the short-id codec in SQL, the ``ids`` registry and
its triggers, and audit triggers writing ``history``. Generated from a set of ``entities``
tables (the migrations pass the set of their revision).

numids are stored as signed bigint with the same 64 bits (``numids.to_signed``); ``encode_id``
and ``decode_id`` convert through numeric, and each entity row's ``id`` is checked against its
``numid`` by the database itself. The application names the acting user of a transaction with
``SET LOCAL layerbench.actor``; a write without it is recorded with a NULL actor.
"""

from layerbench_sites.datalayer.create_table import create_table
from layerbench_sites.datalayer.entities import (
    ColumnType,
    Table,
    added_columns,
    nullability_changed,
)

CODEC_SQL = r"""
CREATE FUNCTION encode_id(numid bigint) RETURNS text
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $$
DECLARE
    n numeric := CASE WHEN numid < 0 THEN numid::numeric + 18446744073709551616
                      ELSE numid::numeric END;
    digits text := '';
BEGIN
    WHILE n > 0 LOOP
        digits := substr('0123456789abcdefghijklmnopqrstuvwxyz', (n % 36)::int + 1, 1) || digits;
        n := div(n, 36);
    END LOOP;
    RETURN lpad(digits, 13, '0');
END $$;

CREATE FUNCTION decode_id(id text) RETURNS bigint
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $$
DECLARE
    n numeric := 0;
BEGIN
    IF id !~ '^[0-9a-z]{13}$' THEN
        RAISE EXCEPTION 'not a version-0 id: %', id USING ERRCODE = '22023';
    END IF;
    FOR i IN 1..13 LOOP
        n := n * 36 + strpos('0123456789abcdefghijklmnopqrstuvwxyz', substr(id, i, 1)) - 1;
    END LOOP;
    IF n > 18446744073709551615 THEN
        RAISE EXCEPTION 'id % is beyond the largest id', id USING ERRCODE = '22003';
    END IF;
    RETURN (CASE WHEN n >= 9223372036854775808 THEN n - 18446744073709551616 ELSE n END)::bigint;
END $$;
"""

REGISTRY_SQL = r"""
CREATE TABLE ids (
    numid bigint PRIMARY KEY,
    id text NOT NULL UNIQUE,
    prettyid text UNIQUE,
    kind text NOT NULL
);

CREATE FUNCTION ids_keep_identity() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.numid IS DISTINCT FROM OLD.numid OR NEW.id IS DISTINCT FROM OLD.id
       OR NEW.kind IS DISTINCT FROM OLD.kind
       OR (OLD.prettyid IS NOT NULL AND NEW.prettyid IS DISTINCT FROM OLD.prettyid) THEN
        RAISE EXCEPTION 'ids: a registered id cannot change' USING ERRCODE = '23514';
    END IF;
    RETURN NEW;
END $$;
CREATE TRIGGER ids_keep_identity BEFORE UPDATE ON ids
    FOR EACH ROW EXECUTE FUNCTION ids_keep_identity();

CREATE FUNCTION registry_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO ids (numid, id, prettyid, kind)
        VALUES (NEW.numid, NEW.id, NEW.prettyid, TG_TABLE_NAME);
    RETURN NEW;
END $$;

CREATE FUNCTION registry_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.numid IS DISTINCT FROM OLD.numid THEN
        RAISE EXCEPTION '%: numid cannot change after creation', TG_TABLE_NAME
            USING ERRCODE = '23514';
    END IF;
    IF NEW.id IS DISTINCT FROM OLD.id THEN
        RAISE EXCEPTION '%: id cannot change after creation', TG_TABLE_NAME
            USING ERRCODE = '23514';
    END IF;
    IF NEW.prettyid IS DISTINCT FROM OLD.prettyid THEN
        IF OLD.prettyid IS NOT NULL THEN
            RAISE EXCEPTION '%: prettyid can be set once and never changed after', TG_TABLE_NAME
                USING ERRCODE = '23514';
        END IF;
        UPDATE ids SET prettyid = NEW.prettyid WHERE numid = NEW.numid;
    END IF;
    RETURN NEW;
END $$;

CREATE FUNCTION registry_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    DELETE FROM ids WHERE numid = OLD.numid;
    RETURN OLD;
END $$;
"""

AUDIT_SQL = r"""
CREATE TABLE history (
    seq bigserial PRIMARY KEY,
    table_name text NOT NULL,
    row_key text NOT NULL,
    operation text NOT NULL CHECK (operation IN ('insert', 'update', 'delete')),
    changed_at timestamptz NOT NULL DEFAULT clock_timestamp(),
    actor text,
    old_values jsonb,
    new_values jsonb
);
CREATE INDEX history_by_row ON history (table_name, row_key, seq);

-- TG_ARGV: the columns that identify a row (the short id for entities).
CREATE FUNCTION audit_row() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    old_values jsonb := CASE WHEN TG_OP = 'INSERT' THEN NULL ELSE to_jsonb(OLD) END;
    new_values jsonb := CASE WHEN TG_OP = 'DELETE' THEN NULL ELSE to_jsonb(NEW) END;
    keyed jsonb := coalesce(new_values, old_values);
    row_key text;
BEGIN
    IF TG_NARGS = 1 THEN
        row_key := keyed ->> TG_ARGV[0];
    ELSE
        SELECT jsonb_agg(keyed -> name ORDER BY position)::text INTO row_key
            FROM unnest(TG_ARGV) WITH ORDINALITY AS k(name, position);
    END IF;
    INSERT INTO history (table_name, row_key, operation, actor, old_values, new_values)
    VALUES (TG_TABLE_NAME, row_key, lower(TG_OP),
            nullif(current_setting('layerbench.actor', true), ''), old_values, new_values);
    RETURN NULL;
END $$;
"""

ENTITY_COLUMNS = (
    "numid bigint PRIMARY KEY",
    "id text NOT NULL UNIQUE CHECK (id = encode_id(numid))",
    "prettyid text UNIQUE",
)
SQL_TYPES = {ColumnType.TEXT: "text", ColumnType.NUMID: "bigint"}


def table_ddl(table: Table) -> str:
    return create_table(table, SQL_TYPES, ENTITY_COLUMNS) + ";\n"


def registry_triggers(table: Table) -> str:
    t = table.name
    return f"""
CREATE TRIGGER {t}_register BEFORE INSERT ON {t}
    FOR EACH ROW EXECUTE FUNCTION registry_insert();
CREATE TRIGGER {t}_registry_rules BEFORE UPDATE ON {t}
    FOR EACH ROW EXECUTE FUNCTION registry_update();
CREATE TRIGGER {t}_unregister AFTER DELETE ON {t}
    FOR EACH ROW EXECUTE FUNCTION registry_delete();
"""


def audit_trigger(table: Table) -> str:
    key = ("id",) if table.is_entity else table.key
    arguments = ", ".join(f"'{name}'" for name in key)
    return f"""
CREATE TRIGGER {table.name}_audit AFTER INSERT OR UPDATE OR DELETE ON {table.name}
    FOR EACH ROW EXECUTE FUNCTION audit_row({arguments});
"""


def schema_statements(tables: tuple[Table, ...], audit: bool = True) -> list[str]:
    """The whole schema, in scripts that PostgreSQL runs whole (several statements each);
    ``audit=False`` leaves out the audit triggers (to measure what they cost)."""
    parts = [CODEC_SQL, REGISTRY_SQL, AUDIT_SQL]
    for table in tables:
        parts.append(table_ddl(table))
        if table.is_entity:
            parts.append(registry_triggers(table))
        if audit:
            parts.append(audit_trigger(table))
    return parts


FUNCTIONS = (
    "encode_id(bigint)",
    "decode_id(text)",
    "ids_keep_identity()",
    "registry_insert()",
    "registry_update()",
    "registry_delete()",
    "audit_row()",
)


def drop_statements(tables: tuple[Table, ...]) -> list[str]:
    """Everything ``schema_statements`` made, gone (a table takes its triggers with it)."""
    names = ", ".join([*(table.name for table in reversed(tables)), "history", "ids"])
    return [
        f"DROP TABLE {names}",
        *(f"DROP FUNCTION {function}" for function in FUNCTIONS),
    ]


def add_columns_statements(before: Table, after: Table, audit: bool = True) -> list[str]:
    """``before`` becomes ``after`` (nullable columns added). The audit trigger records whole
    rows (``to_jsonb``), so it needs no change."""
    del audit
    return [
        f"ALTER TABLE {after.name} ADD COLUMN {column.name} {SQL_TYPES[column.type]};"
        for column in added_columns(before, after)
    ]


def drop_columns_statements(after: Table, before: Table, audit: bool = True) -> list[str]:
    """Back from ``after`` to ``before``."""
    del audit
    return [
        f"ALTER TABLE {after.name} DROP COLUMN {column.name};"
        for column in added_columns(before, after)
    ]


def nullability_statements(before: Table, after: Table) -> list[str]:
    """``before`` becomes ``after``, whose columns differ in being nullable or not. The
    triggers record whole rows, NULLs included, so they need no change."""
    return [
        f"ALTER TABLE {after.name} ALTER COLUMN {column.name}"
        f" {'DROP' if column.nullable else 'SET'} NOT NULL;"
        for column in nullability_changed(before, after)
    ]
