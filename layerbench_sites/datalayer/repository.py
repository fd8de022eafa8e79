"""The data layer through a DB-API connection, on any of the dialects: entities created with
fresh short ids (retrying on a collision), updated, deleted, and read back with their audit
history. Every write is one transaction, run again from its start when a fresh id collided or
when the database gave it up for another (a deadlock, a serialization failure), a bounded
number of times.

The registry and the history are written by the database's triggers, not here: the repository
only names the acting user of each write transaction and reads what the triggers recorded. The
connection must be in autocommit mode; the repository begins and ends its own transactions.

Every row is written through the repository's primitives (``insert_row``, ``update_row``,
``delete_row``, ``insert_link``, ``delete_links``), which declare what they wrote; once a
transaction has committed, its observers are told which entities it changed (see ``written``):
a rolled-back attempt tells nothing, a transaction run again tells once.
"""

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import datetime
from typing import Any, TypeVar

from layerbench.errors import LayerbenchError
from layerbench_sites.datalayer.changes import Change, Row, decode_values, state_at
from layerbench_sites.datalayer.dialect import Dialect
from layerbench_sites.datalayer.entities import IDENTITY_TABLE, TABLES_BY_NAME, ColumnType, Table
from layerbench_sites.datalayer.retried import run_retried
from layerbench_sites.datalayer.written import WriteLog, WriteObserver
from layerbench_sites.ids.codec import decode, encode
from layerbench_sites.ids.generate import new_number

T = TypeVar("T")


class NotFoundError(LayerbenchError):
    """No entity has the id (or, in the video domain, the pretty id) a caller named."""


class Repository:
    def __init__(
        self, connection: Any, dialect: Dialect, new_numid: Callable[[], int] = new_number
    ) -> None:
        self.connection = connection
        self.dialect = dialect
        self.new_numid = new_numid
        self.observers: list[WriteObserver] = []
        # What the open transaction has written (None outside a transaction).
        self._log: WriteLog | None = None
        # The write transactions begun through ``write``, every attempt counted (a transaction
        # run again counts twice); whoever reports them sets it back to 0.
        self.write_attempts = 0

    def observe(self, observer: WriteObserver) -> None:
        """``observer`` is told, after each write transaction commits, what it changed."""
        self.observers.append(observer)

    @contextmanager
    def transaction(self, actor: str | None) -> Iterator[Any]:
        """One write transaction, attributed to ``actor``; rolled back (its history with it)
        if the block raises. Yields a cursor. Once it has committed, the observers are told
        what its primitives wrote."""
        log = WriteLog()
        with self._committed(actor, log) as cursor:
            yield cursor
        self._tell(log)

    def write(self, actor: str | None, work: Callable[[Any], T]) -> T:
        """``work(cursor)`` in one write transaction (see ``transaction``), and its result.

        The whole transaction is run again, ``work`` from its start, when a fresh id collided
        with an existing one (up to MAX_ID_ATTEMPTS in all) or when the database gave it up
        for another transaction (up to MAX_TRANSIENT_ATTEMPTS, after a short random pause);
        past those bounds, or on any other error, the error is raised. The observers are told
        once, of the attempt that committed (an observer's error is raised, never retried)."""

        def attempt() -> tuple[T, WriteLog]:
            self.write_attempts += 1
            log = WriteLog()
            with self._committed(actor, log) as cursor:
                return work(cursor), log

        result, log = run_retried(self.dialect, attempt)
        self._tell(log)
        return result

    @contextmanager
    def _committed(self, actor: str | None, log: WriteLog) -> Iterator[Any]:
        """The transaction itself: committed when the block returns, after the names of what
        it wrote are read into ``log``; rolled back if it raises."""
        cursor = self.connection.cursor()
        self.dialect.begin(cursor)
        self._log = log
        try:
            if actor is not None:
                self.dialect.set_actor(cursor, actor)
            yield cursor
            log.read_names(lambda table, numid: self.get_row(cursor, table, numid))
            if actor is not None:
                self.dialect.clear_actor(cursor)
            cursor.execute("COMMIT")
        except BaseException:
            cursor.execute("ROLLBACK")
            if actor is not None:
                self.dialect.forget_actor(cursor)
            raise
        finally:
            self._log = None
            cursor.close()

    def _tell(self, log: WriteLog) -> None:
        """After a commit: the observers learn what the transaction changed, if anything."""
        written = log.written()
        if written:
            for observer in self.observers:
                observer(written)

    def create(
        self, table_name: str, values: Row, *, actor: str | None, prettyid: str | None = None
    ) -> str:
        """Inserts a new entity under a fresh id and returns the id. A collision with an
        existing id is a failed insert, retried with another id."""
        table = entity_table(table_name)

        def work(cursor: Any) -> str:
            numid = self.new_numid()
            self.insert_row(cursor, table, numid, prettyid, values)
            return encode(numid)

        return self.write(actor, work)

    def put(self, table_name: str, identifier: str, values: Row, *, actor: str | None) -> bool:
        """Creates the entity under the client's own id, or brings it to ``values``: doing it
        twice is doing it once (an unchanged row is not written, so not recorded). Returns
        whether it was created."""
        table = entity_table(table_name)
        numid = decode(identifier)

        def work(cursor: Any) -> bool:
            current = self.get_row(cursor, table, numid)
            if current is None:
                self.insert_row(cursor, table, numid, None, values)
                return True
            if any(current[name] != value for name, value in values.items()):
                self.update_row(cursor, table, numid, values)
            return False

        return self.write(actor, work)

    def update(self, table_name: str, identifier: str, values: Row, *, actor: str | None) -> None:
        table = entity_table(table_name)

        def work(cursor: Any) -> None:
            if not self.update_row(cursor, table, decode(identifier), values):
                raise NotFoundError(f"{table_name}: no {identifier}")

        self.write(actor, work)

    def set_prettyid(
        self, table_name: str, identifier: str, prettyid: str, *, actor: str | None
    ) -> None:
        self.update(table_name, identifier, {"prettyid": prettyid}, actor=actor)

    def delete(self, table_name: str, identifier: str, *, actor: str | None) -> None:
        table = entity_table(table_name)

        def work(cursor: Any) -> None:
            if not self.delete_row(cursor, table, decode(identifier)):
                raise NotFoundError(f"{table_name}: no {identifier}")

        self.write(actor, work)

    def get(self, table_name: str, identifier: str) -> Row | None:
        cursor = self.connection.cursor()
        try:
            return self.get_row(cursor, entity_table(table_name), decode(identifier))
        finally:
            cursor.close()

    def history(self, table_name: str, identifier: str) -> list[Change]:
        """Every recorded change of the entity, oldest first."""
        table = entity_table(table_name)
        p = self.dialect.placeholder
        cursor = self.connection.cursor()
        try:
            cursor.execute(
                "SELECT seq, operation, changed_at, actor, old_values, new_values FROM history"
                f" WHERE table_name = {p} AND row_key = {p} ORDER BY seq",
                (table.name, identifier),
            )
            rows = cursor.fetchall()
        finally:
            cursor.close()
        return [
            Change(
                seq,
                operation,
                self.dialect.history_time(at),
                actor,
                decode_values(table, old, self.dialect.from_stored),
                decode_values(table, new, self.dialect.from_stored),
            )
            for seq, operation, at, actor, old, new in rows
        ]

    def identity(self) -> str:
        """The database's own id, drawn once when its schema was made (revision 0005): a
        database made again at the same place has another."""
        cursor = self.connection.cursor()
        try:
            cursor.execute(f"SELECT id FROM {IDENTITY_TABLE}")
            [(identity,)] = cursor.fetchall()
        finally:
            cursor.close()
        return str(identity)

    def as_of(self, table_name: str, identifier: str, moment: datetime) -> Row | None:
        """The entity as it was at ``moment``, from its history; None if it did not exist."""
        return state_at(self.history(table_name, identifier), moment)

    def insert_row(
        self, cursor: Any, table: Table, numid: int, prettyid: str | None, values: Row
    ) -> None:
        columns = ["numid", "id", "prettyid", *values]
        stored = [self.dialect.to_stored(numid), encode(numid), prettyid]
        stored += self._stored(table, values)
        placeholders = ", ".join(self.dialect.placeholder for _ in columns)
        cursor.execute(
            f"INSERT INTO {table.name} ({', '.join(columns)}) VALUES ({placeholders})", stored
        )
        self._wrote(table, numid, {"prettyid": prettyid, **values})

    def update_row(self, cursor: Any, table: Table, numid: int, values: Row) -> bool:
        p = self.dialect.placeholder
        assignments = ", ".join(f"{name} = {p}" for name in values)
        cursor.execute(
            f"UPDATE {table.name} SET {assignments} WHERE numid = {p}",
            [*self._stored(table, values), self.dialect.to_stored(numid)],
        )
        if cursor.rowcount != 1:
            return False
        self._wrote(table, numid, None)
        return True

    def delete_row(self, cursor: Any, table: Table, numid: int) -> bool:
        """Deletes the entity (the rows that depend on it cascade); whether there was one."""
        row = self.get_row(cursor, table, numid)
        if row is None:
            return False
        cursor.execute(
            f"DELETE FROM {table.name} WHERE numid = {self.dialect.placeholder}",
            (self.dialect.to_stored(numid),),
        )
        if cursor.rowcount != 1:
            return False
        self._wrote(table, numid, row)
        return True

    def insert_link(self, cursor: Any, table: Table, values: Row) -> None:
        """A row of a link table (no id of its own), e.g. a video's tag."""
        placeholders = ", ".join(self.dialect.placeholder for _ in values)
        cursor.execute(
            f"INSERT INTO {table.name} ({', '.join(values)}) VALUES ({placeholders})",
            self._stored(table, values),
        )
        self._wrote(table, None, values)

    def delete_links(self, cursor: Any, table: Table, column: str, numid: int) -> None:
        """Deletes the link rows whose ``column`` is ``numid``, e.g. every tag of a video."""
        p = self.dialect.placeholder
        cursor.execute(
            f"SELECT {', '.join(table.all_columns)} FROM {table.name} WHERE {column} = {p}",
            (self.dialect.to_stored(numid),),
        )
        links = [
            self._from_stored(table, dict(zip(table.all_columns, row, strict=True)))
            for row in cursor.fetchall()
        ]
        cursor.execute(
            f"DELETE FROM {table.name} WHERE {column} = {p}", (self.dialect.to_stored(numid),)
        )
        for link in links:
            self._wrote(table, None, link)

    def get_row(self, cursor: Any, table: Table, numid: int) -> Row | None:
        columns = table.all_columns
        p = self.dialect.placeholder
        cursor.execute(
            f"SELECT {', '.join(columns)} FROM {table.name} WHERE numid = {p}",
            (self.dialect.to_stored(numid),),
        )
        row = cursor.fetchone()
        if row is None:
            return None
        result = self._from_stored(table, dict(zip(columns, row, strict=True)))
        result["numid"] = self.dialect.from_stored(result["numid"])
        return result

    def _from_stored(self, table: Table, row: Row) -> Row:
        """``row``'s references back to their numids."""
        for column in table.columns:
            if column.type is ColumnType.NUMID and row[column.name] is not None:
                row[column.name] = self.dialect.from_stored(row[column.name])
        return row

    def _wrote(self, table: Table, numid: int | None, row: Row | None) -> None:
        if self._log is None:
            raise RuntimeError("rows are written in a transaction (Repository.transaction)")
        self._log.wrote(table, numid, row)

    def _stored(self, table: Table, values: Row) -> list[Any]:
        types = {column.name: column.type for column in table.columns}
        unknown = set(values) - set(types) - {"prettyid"}
        if unknown:
            raise ValueError(f"{table.name} has no column {', '.join(sorted(unknown))}")
        return [
            self.dialect.to_stored(value) if types.get(name) is ColumnType.NUMID else value
            for name, value in values.items()
        ]


def entity_table(name: str) -> Table:
    table = TABLES_BY_NAME.get(name)
    if table is None or not table.is_entity:
        raise ValueError(f"{name!r} is not an entity table")
    return table
