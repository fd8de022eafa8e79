"""The data layer's three databases, as the tests see them: a fresh database per test,
repositories on it, and raw SQL behind the application's back."""

import secrets
import sqlite3
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
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
