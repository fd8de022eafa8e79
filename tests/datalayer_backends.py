"""The data layer's three databases, as the tests see them: a database with the schema per test,
repositories on it, and raw SQL behind the application's back.

On PostgreSQL and MariaDB, making the schema (tables, the registry's and the audit's triggers) is
most of a test's time, so one database with the schema serves a whole session and is emptied
between tests (``emptied``): every table a test writes is truncated, which fires no trigger and
restarts the history's sequence, and the rows the schema itself made (its migration version, the
site's identity) are checked unchanged, as are the tables and triggers, so that a test that
changed more than data fails instead of leaking into the next."""

import secrets
import sqlite3
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import psycopg
import pymysql

from layerbench.services.mariadb import connect_mariadb
from layerbench_sites.datalayer import mariadb_repository, postgres_repository, sqlite_repository
from layerbench_sites.datalayer.numids import to_signed
from layerbench_sites.datalayer.repository import Repository
from layerbench_sites.ids.generate import new_number


@dataclass
class Backend:
    name: str
    connect: Callable[[], Any]  # an autocommit DB-API connection to this test's database
    make_repository: Callable[[Any, Callable[[], int]], Repository]
    refused: tuple[type[Exception], ...]  # what a refused write raises
    # A regex matching the error of a duplicate value in ids.<column>.
    duplicate: Callable[[str], str]
    placeholder: str
    stores_signed: bool
    opened: list[Any] = field(default_factory=list)

    def repository(self, new_numid: Callable[[], int] = new_number) -> Repository:
        """A repository on a connection of its own, closed by ``close``."""
        connection = self.connect()
        self.opened.append(connection)
        return self.make_repository(connection, new_numid)

    def close(self) -> None:
        for connection in self.opened:
            connection.close()
        self.opened.clear()

    def stored(self, numid: int) -> int:
        return to_signed(numid) if self.stores_signed else numid

    @contextmanager
    def raw(self) -> Iterator[Any]:
        """A cursor on a connection of its own, no actor: SQL behind the application's back.
        Write ``?`` for a parameter."""
        connection = self.connect()
        cursor = connection.cursor()
        try:
            yield RawCursor(cursor, self.placeholder)
        finally:
            cursor.close()
            connection.close()

    def query(self, sql: str, parameters: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        with self.raw() as cursor:
            cursor.execute(sql, parameters)
            return list(cursor.fetchall())


class RawCursor:
    def __init__(self, cursor: Any, placeholder: str) -> None:
        self._cursor = cursor
        self._placeholder = placeholder

    def execute(self, sql: str, parameters: tuple[Any, ...] = ()) -> None:
        self._cursor.execute(sql.replace("?", self._placeholder), parameters)

    def fetchall(self) -> list[tuple[Any, ...]]:
        return list(self._cursor.fetchall())

    def fetchone(self) -> tuple[Any, ...] | None:
        row = self._cursor.fetchone()
        return None if row is None else tuple(row)


def sqlite_backend(directory: Path) -> Backend:
    path = directory / "data.sqlite3"
    sqlite_repository.create_schema(path)
    return Backend(
        name="sqlite",
        connect=lambda: sqlite_repository.connect(path),
        make_repository=sqlite_repository.SqliteRepository,
        refused=(sqlite3.IntegrityError,),
        duplicate=lambda column: rf"UNIQUE constraint failed: ids\.{column}",
        placeholder="?",
        stores_signed=True,
    )


def empty_postgres_database(server_url: str) -> tuple[str, Callable[[], None]]:
    """A new, empty database on the session's server: its URL, and how to drop it."""
    name = f"t_{secrets.token_hex(6)}"
    base, _, _ = server_url.rpartition("/")
    with psycopg.connect(server_url, autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')

    def drop() -> None:
        with psycopg.connect(server_url, autocommit=True) as admin:
            admin.execute(f'DROP DATABASE "{name}" WITH (FORCE)')

    return f"{base}/{name}", drop


def empty_mariadb_database(server_url: str) -> tuple[str, Callable[[], None]]:
    name = f"t_{secrets.token_hex(6)}"
    base, _, _ = server_url.rpartition("/")
    admin = connect_mariadb(server_url)
    with admin, admin.cursor() as cursor:
        cursor.execute(f"CREATE DATABASE `{name}`")

    def drop() -> None:
        admin = connect_mariadb(server_url)
        with admin, admin.cursor() as cursor:
            cursor.execute(f"DROP DATABASE `{name}`")

    return f"{base}/{name}", drop


def postgres_backend(server_url: str) -> tuple[Backend, Callable[[], None]]:
    """A fresh database with the schema on the session's server; returns it and how to drop
    it."""
    url, drop = empty_postgres_database(server_url)
    postgres_repository.create_schema(url)

    constraint = {"numid": "ids_pkey", "id": "ids_id_key", "prettyid": "ids_prettyid_key"}
    backend = Backend(
        name="postgres",
        connect=lambda: postgres_repository.connect(url),
        make_repository=postgres_repository.PostgresRepository,
        refused=(psycopg.errors.IntegrityError, psycopg.errors.RaiseException),
        duplicate=lambda column: f'unique constraint "{constraint[column]}"',
        placeholder="%s",
        stores_signed=True,
    )
    return backend, drop


def mariadb_backend(server_url: str) -> tuple[Backend, Callable[[], None]]:
    url, drop = empty_mariadb_database(server_url)
    mariadb_repository.create_schema(url)

    key = {"numid": "PRIMARY", "id": "id", "prettyid": "prettyid"}
    backend = Backend(
        name="mariadb",
        connect=lambda: mariadb_repository.connect(url),
        make_repository=mariadb_repository.MariadbRepository,
        refused=(
            pymysql.err.IntegrityError,
            pymysql.err.OperationalError,
            pymysql.err.InternalError,
        ),
        duplicate=lambda column: f"for key '(ids\\.)?{key[column]}'",
        placeholder="%s",
        stores_signed=False,
    )
    return backend, drop


# The tables whose rows the schema makes and no test may change: kept, and checked, by emptied.
SCHEMA_ROWS = ("alembic_version", "site_identity")


@dataclass(frozen=True)
class SchemaState:
    """What emptying a database must leave as the schema made it."""

    tables: tuple[str, ...]
    triggers: int
    fixed_rows: tuple[tuple[tuple[Any, ...], ...], ...]


def schema_state(backend: Backend) -> SchemaState:
    schema = "DATABASE()" if backend.name == "mariadb" else "current_schema()"
    tables = tuple(
        sorted(
            str(name)
            for (name,) in backend.query(
                "SELECT table_name FROM information_schema.tables WHERE table_schema = "
                f"{schema} AND table_type = 'BASE TABLE'"
            )
        )
    )
    ((triggers,),) = backend.query(
        f"SELECT COUNT(*) FROM information_schema.triggers WHERE trigger_schema = {schema}"
    )
    fixed = tuple(
        tuple(sorted(backend.query(f"SELECT * FROM {name}"), key=repr)) for name in SCHEMA_ROWS
    )
    return SchemaState(tables, int(triggers), fixed)


def emptied(backend: Backend, made: SchemaState) -> None:
    """Every table but the schema's own rows truncated; fails if a test changed more than data."""
    written = [name for name in made.tables if name not in SCHEMA_ROWS]
    with backend.raw() as cursor:
        if backend.name == "mariadb":
            # DELETE, not TRUNCATE, which remakes each table's file: a tenth of the time. Its
            # triggers write history, deleted last, whose sequence then starts again at 1.
            cursor.execute("SET FOREIGN_KEY_CHECKS = 0")
            for name in sorted(written, key=lambda name: name == "history"):
                cursor.execute(f"DELETE FROM `{name}`")
            cursor.execute("ALTER TABLE history AUTO_INCREMENT = 1")
            cursor.execute("SET FOREIGN_KEY_CHECKS = 1")
        else:
            cursor.execute(f"TRUNCATE {', '.join(written)} RESTART IDENTITY CASCADE")
    now = schema_state(backend)
    assert now == made, f"a test changed the schema or its own rows: {made} became {now}"


def shared_backend(
    make: Callable[[str], tuple[Backend, Callable[[], None]]], server_url: str
) -> Iterator[tuple[Backend, SchemaState]]:
    """One database with the schema for a session (see emptied), and its state when made."""
    backend, drop = make(server_url)
    try:
        yield backend, schema_state(backend)
    finally:
        backend.close()
        drop()


def fresh_view(backend: Backend) -> Backend:
    """The session's backend with connections of the test's own (closed by its ``close``)."""
    return replace(backend, opened=[])
