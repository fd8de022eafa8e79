"""The data layer on MariaDB (PyMySQL): its schema created in a database, connections as the
repository needs them, and the repository on the MariaDB dialect."""

from collections.abc import Callable
from typing import TYPE_CHECKING

from layerbench.services.mariadb import connect_mariadb
from layerbench_sites.datalayer import migrate
from layerbench_sites.datalayer.mariadb_dialect import MariadbDialect
from layerbench_sites.datalayer.repository import Repository
from layerbench_sites.ids.generate import new_number

if TYPE_CHECKING:  # PyMySQL is the databases extra's, imported where used
    import pymysql

# PyMySQL's default: the repository waits longer than a probe of the service does.
CONNECT_TIMEOUT_S = 10


def connect(url: str) -> "pymysql.connections.Connection":
    """A connection as the repository needs it: autocommit (the repository begins its transactions),
    strict SQL mode, UTC for the session, and an UPDATE's row count counting the rows it
    matched (MySQL's default counts only those it changed)."""
    from pymysql.constants import CLIENT

    return connect_mariadb(
        url,
        connect_timeout_s=CONNECT_TIMEOUT_S,
        client_flag=CLIENT.FOUND_ROWS,
        init_command="SET SESSION sql_mode = 'STRICT_ALL_TABLES,NO_ENGINE_SUBSTITUTION',"
        " time_zone = '+00:00'",
    )


def create_schema(url: str, audit: bool = True) -> None:
    """The newest schema in the database at ``url``."""
    migrate.upgrade(url, audit=audit)


class MariadbRepository(Repository):
    def __init__(
        self,
        connection: "pymysql.connections.Connection",
        new_numid: Callable[[], int] = new_number,
    ) -> None:
        super().__init__(connection, MariadbDialect(), new_numid)
