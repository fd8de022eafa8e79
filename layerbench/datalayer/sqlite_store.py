"""The data layer on SQLite, through the DB-API driver: entities created with fresh short ids
(retrying on a collision), updated, deleted, and read back with their audit history.

The registry and the history are written by the database's triggers, not here: this class only
names the acting user of each write transaction and reads what the triggers recorded.
"""

import sqlite3
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import datetime
from pathlib import Path
from typing import Any

from layerbench.datalayer.changes import Change, Row, decode_values, state_at
from layerbench.datalayer.entities import TABLES_BY_NAME, ColumnType, Table
from layerbench.datalayer.numids import from_signed, to_signed
from layerbench.datalayer.sqlite_schema import schema_script
from layerbench.errors import LayerbenchError
from layerbench.ids.codec import decode, encode
from layerbench.ids.generate import new_number

# A fresh id colliding twice in a row has a chance of about (rows / 2**64) squared.
MAX_ID_ATTEMPTS = 5
BUSY_TIMEOUT_MS = 30_000
COLLISION_MESSAGES = ("UNIQUE constraint failed: ids.numid", "UNIQUE constraint failed: ids.id")


class IdCollisionError(LayerbenchError):
    """Every attempt to insert with a fresh id met an existing one."""


class NotFoundError(LayerbenchError):
    pass


def create_schema(path: Path, audit: bool = True) -> None:
    connection = sqlite3.connect(path)
    try:
        connection.execute("PRAGMA journal_mode=WAL")
        connection.executescript(schema_script(audit=audit))
    finally:
        connection.close()


def connect(path: Path) -> sqlite3.Connection:
    """A connection as the store needs it: foreign keys on, waiting for a busy writer, and
    transactions begun explicitly."""
    connection = sqlite3.connect(path, isolation_level=None, timeout=BUSY_TIMEOUT_MS / 1000)
    connection.execute("PRAGMA foreign_keys = ON")
    return connection


class SqliteStore:
    def __init__(
        self, connection: sqlite3.Connection, new_numid: Callable[[], int] = new_number
    ) -> None:
        self.connection = connection
        self.new_numid = new_numid

    @contextmanager
    def transaction(self, actor: str | None) -> Iterator[sqlite3.Connection]:
        """One write transaction, attributed to ``actor``; rolled back (history included) if
        the block raises."""
        self.connection.execute("BEGIN IMMEDIATE")
        try:
            if actor is not None:
                self.connection.execute(
                    "INSERT INTO audit_actor (slot, actor) VALUES (1, ?)", (actor,)
                )
            yield self.connection
            self.connection.execute("DELETE FROM audit_actor")
            self.connection.execute("COMMIT")
        except BaseException:
            self.connection.execute("ROLLBACK")
            raise

    def create(
        self, table_name: str, values: Row, *, actor: str | None, prettyid: str | None = None
    ) -> str:
        """Inserts a new entity under a fresh id and returns the id. A collision with an
        existing id is a failed insert, retried with another id."""
        table = entity_table(table_name)
        for _ in range(MAX_ID_ATTEMPTS):
            numid = self.new_numid()
            try:
                with self.transaction(actor):
                    self._insert(table, numid, prettyid, values)
            except sqlite3.IntegrityError as error:
                if str(error) in COLLISION_MESSAGES:
                    continue
                raise
            return encode(numid)
        raise IdCollisionError(f"{table_name}: {MAX_ID_ATTEMPTS} fresh ids all collided")

    def put(self, table_name: str, identifier: str, values: Row, *, actor: str | None) -> bool:
        """Creates the entity under the client's own id, or brings it to ``values``: doing it
        twice is doing it once (an unchanged row is not written, so not recorded). Returns
        whether it was created."""
        table = entity_table(table_name)
        numid = decode(identifier)
        with self.transaction(actor):
            current = self._get(table, numid)
            if current is None:
                self._insert(table, numid, None, values)
                return True
            if any(current[name] != value for name, value in values.items()):
                self._update(table, numid, values)
            return False

    def update(self, table_name: str, identifier: str, values: Row, *, actor: str | None) -> None:
        table = entity_table(table_name)
        with self.transaction(actor):
            if not self._update(table, decode(identifier), values):
                raise NotFoundError(f"{table_name}: no {identifier}")

    def set_prettyid(
        self, table_name: str, identifier: str, prettyid: str, *, actor: str | None
    ) -> None:
        self.update(table_name, identifier, {"prettyid": prettyid}, actor=actor)

    def delete(self, table_name: str, identifier: str, *, actor: str | None) -> None:
        table = entity_table(table_name)
        with self.transaction(actor):
            cursor = self.connection.execute(
                f"DELETE FROM {table.name} WHERE numid = ?", (to_signed(decode(identifier)),)
            )
            if cursor.rowcount != 1:
                raise NotFoundError(f"{table_name}: no {identifier}")

    def get(self, table_name: str, identifier: str) -> Row | None:
        return self._get(entity_table(table_name), decode(identifier))

    def history(self, table_name: str, identifier: str) -> list[Change]:
        """Every recorded change of the entity, oldest first."""
        table = entity_table(table_name)
        rows = self.connection.execute(
            "SELECT seq, operation, changed_at, actor, old_values, new_values FROM history"
            " WHERE table_name = ? AND row_key = ? ORDER BY seq",
            (table.name, identifier),
        ).fetchall()
        return [
            Change(seq, operation, at, actor, decode_values(table, old), decode_values(table, new))
            for seq, operation, at, actor, old, new in rows
        ]

    def as_of(self, table_name: str, identifier: str, moment: datetime) -> Row | None:
        """The entity as it was at ``moment``, from its history; None if it did not exist."""
        return state_at(self.history(table_name, identifier), moment)

    def _insert(self, table: Table, numid: int, prettyid: str | None, values: Row) -> None:
        columns = ["numid", "id", "prettyid", *values]
        stored = [to_signed(numid), encode(numid), prettyid, *self._stored(table, values)]
        placeholders = ", ".join("?" for _ in columns)
        self.connection.execute(
            f"INSERT INTO {table.name} ({', '.join(columns)}) VALUES ({placeholders})", stored
        )

    def _update(self, table: Table, numid: int, values: Row) -> bool:
        assignments = ", ".join(f"{name} = ?" for name in values)
        cursor = self.connection.execute(
            f"UPDATE {table.name} SET {assignments} WHERE numid = ?",
            [*self._stored(table, values), to_signed(numid)],
        )
        return cursor.rowcount == 1

    def _get(self, table: Table, numid: int) -> Row | None:
        columns = table.all_columns
        row = self.connection.execute(
            f"SELECT {', '.join(columns)} FROM {table.name} WHERE numid = ?", (to_signed(numid),)
        ).fetchone()
        if row is None:
            return None
        result = dict(zip(columns, row, strict=True))
        result["numid"] = from_signed(result["numid"])
        for column in table.columns:
            if column.type is ColumnType.NUMID:
                result[column.name] = from_signed(result[column.name])
        return result

    def _stored(self, table: Table, values: Row) -> list[Any]:
        types = {column.name: column.type for column in table.columns}
        unknown = set(values) - set(types) - {"prettyid"}
        if unknown:
            raise ValueError(f"{table.name} has no column {', '.join(sorted(unknown))}")
        return [
            to_signed(value) if types.get(name) is ColumnType.NUMID else value
            for name, value in values.items()
        ]


def entity_table(name: str) -> Table:
    table = TABLES_BY_NAME.get(name)
    if table is None or not table.is_entity:
        raise ValueError(f"{name!r} is not an entity table")
    return table
