"""The data layer on PostgreSQL (psycopg 3): its schema created in a database, connections as the
repository needs them, and the repository on the PostgreSQL dialect."""

from collections.abc import Callable
from typing import TYPE_CHECKING

from layerbench_sites.datalayer import migrate
from layerbench_sites.datalayer.postgres_dialect import PostgresDialect
from layerbench_sites.datalayer.repository import Repository
from layerbench_sites.ids.generate import new_number

if TYPE_CHECKING:  # psycopg is the databases extra's, imported where used
    import psycopg


def create_schema(url: str, audit: bool = True) -> None:
    """The newest schema in the database at ``url``."""
    migrate.upgrade(url, audit=audit)


def connect(url: str) -> "psycopg.Connection[tuple[object, ...]]":
    """A connection as the repository needs it: autocommit (it begins its own transactions)."""
    import psycopg

    return psycopg.connect(url, autocommit=True)


class PostgresRepository(Repository):
    def __init__(
        self,
        connection: "psycopg.Connection[tuple[object, ...]]",
        new_numid: Callable[[], int] = new_number,
    ) -> None:
        super().__init__(connection, PostgresDialect(), new_numid)
