"""The data layer on MariaDB (PyMySQL): its schema created in a database, connections as the
repository needs them, and the repository on the MariaDB dialect."""

from collections.abc import Callable

import pymysql
from pymysql.constants import CLIENT

from layerbench.datalayer import migrate
from layerbench.datalayer.mariadb_dialect import MariadbDialect
from layerbench.datalayer.repository import Repository
from layerbench.ids.generate import new_number
from layerbench.services.urls import ServiceUrl


def connect(url: str) -> pymysql.connections.Connection:
    """A connection as the repository needs it: autocommit (the repository begins its transactions),
    strict SQL mode, UTC for the session, and an UPDATE's row count counting the rows it
    matched (MySQL's default counts only those it changed)."""
    parsed = ServiceUrl.parse(url)
    return pymysql.connect(
        host=parsed.host,
        port=parsed.port,
        user=parsed.user or "root",
        password=parsed.password or "",
        database=parsed.database,
        autocommit=True,
        charset="utf8mb4",
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
        connection: pymysql.connections.Connection,
        new_numid: Callable[[], int] = new_number,
    ) -> None:
        super().__init__(connection, MariadbDialect(), new_numid)
