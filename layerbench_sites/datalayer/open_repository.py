"""A repository on whichever database a URL names: a SQLite file's path (the embedded default), or a
``postgres://`` / ``mysql://`` URL as ``layerbench services`` hands out.

What a user names a database with (``database_location``) may also be a SQLAlchemy URL:
``sqlite:///relative.db``, ``sqlite:////absolute.db``, ``postgresql+psycopg://…``."""

from pathlib import Path
from urllib.parse import unquote

from layerbench.errors import ConfigError
from layerbench.services.urls import ServiceUrl
from layerbench_sites.datalayer import (
    mariadb_repository,
    migrate,
    postgres_repository,
    sqlite_repository,
)
from layerbench_sites.datalayer.repository import Repository

SQLITE_SCHEME = "sqlite"
DATABASE_SCHEMES = ("postgresql", "postgres", "mysql", "mariadb")


def is_sqlite(url: str) -> bool:
    return "://" not in url


def database_location(text: str) -> str:
    """The database ``text`` names, as the data layer takes it: a SQLite file's path (given as
    a path, or as SQLAlchemy reads ``sqlite:///relative/x.db`` and ``sqlite:////abs/x.db``), or
    a postgresql:// or mysql:// URL (a SQLAlchemy driver such as ``+psycopg`` left out)."""
    if "://" not in text:
        return text
    scheme, rest = text.split("://", 1)
    base = scheme.split("+", 1)[0].lower()
    if base == SQLITE_SCHEME:
        path = unquote(rest.removeprefix("/").split("?", 1)[0])
        if not rest.startswith("/") or path in ("", ":memory:"):
            raise ConfigError(
                f"{text}: a SQLite database is a file, sqlite:///RELATIVE/PATH or "
                "sqlite:////ABSOLUTE/PATH (or just its path)"
            )
        return path
    if base in DATABASE_SCHEMES:
        return f"{base}://{rest}"
    schemes = ", ".join(f"{name}://" for name in DATABASE_SCHEMES)
    raise ConfigError(
        f"{text} is not a database: give a SQLite file's path (a plain path is fine, or "
        f"{SQLITE_SCHEME}:///PATH) or a URL starting with {schemes}"
    )


def prepare(url: str) -> None:
    """The database at ``url`` brought to the newest schema (created if it is empty)."""
    if is_sqlite(url):
        sqlite_repository.create_schema(Path(url))
    else:
        migrate.upgrade(url)


def open_repository(url: str) -> Repository:
    """A new connection to ``url`` and a repository on it (one per thread: connections are not
    shared)."""
    if is_sqlite(url):
        return sqlite_repository.SqliteRepository(sqlite_repository.connect(Path(url)))
    kind = ServiceUrl.parse(url).kind
    if kind == "postgres":
        return postgres_repository.PostgresRepository(postgres_repository.connect(url))
    if kind == "mariadb":
        return mariadb_repository.MariadbRepository(mariadb_repository.connect(url))
    raise ValueError(f"{url!r} is not a database URL (postgres://, mysql:// or a SQLite path)")
