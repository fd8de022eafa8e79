"""A throwaway MariaDB: mariadb-install-db into the private directory, the server with
``--no-defaults`` (no /etc/mysql), listening on loopback and on a socket in the directory, and a
database named ``layerbench`` that root reaches over TCP without a password."""

from pathlib import Path

import pymysql

from layerbench.errors import LayerbenchError
from layerbench.services.service import ManagedService
from layerbench.services.urls import ServiceUrl

DATABASE = "layerbench"
SOCKET = "mariadb.sock"


class MariadbService(ManagedService):
    name = "mariadb"
    apt_package = "mariadb-server"
    port_taken_marker = "Address already in use"

    def programs(self) -> dict[str, str]:
        return {"mariadb-install-db": "mariadb-install-db", "mariadbd": "/usr/sbin/mariadbd"}

    def prepare(self, directory: Path) -> None:
        command = [
            str(self.find("mariadb-install-db")),
            "--no-defaults",
            f"--datadir={directory / 'data'}",
            "--auth-root-authentication-method=normal",
            "--skip-test-db",
            "--skip-name-resolve",
            # Its temporary files in its own directory, not in $TMPDIR, which the account it
            # runs as may not be allowed to write.
            f"--tmpdir={directory}",
        ]
        if self.run_as is not None:
            command.append(f"--user={self.run_as.name}")
        self.run_setup(command, directory)

    def command(self, directory: Path, port: int) -> list[str]:
        command = [
            str(self.find("mariadbd")),
            "--no-defaults",
            f"--datadir={directory / 'data'}",
            f"--socket={directory / SOCKET}",
            f"--pid-file={directory / 'mariadb.pid'}",
            f"--tmpdir={directory}",
            f"--port={port}",
            f"--bind-address={self.host}",
            "--skip-name-resolve",
            "--log-error",  # to stderr, which is our log
            "--max-connections=500",
            "--innodb-buffer-pool-size=64M",
            "--innodb-log-file-size=16M",
        ]
        if self.run_as is not None:
            command.append(f"--user={self.run_as.name}")
        return command

    def url_for(self, port: int) -> str:
        return f"mysql://root@{self.host}:{port}/{DATABASE}"

    def probe(self, url: str) -> None:
        probe_mariadb(url)

    def probe_ready(self) -> None:
        """Over the socket, as root@localhost: the TCP account comes with after_ready."""
        assert self.directory is not None
        probe_socket(self.directory / SOCKET)

    def after_ready(self, url: str) -> None:
        assert self.directory is not None
        connection = pymysql.connect(
            unix_socket=str(self.directory / SOCKET), user="root", autocommit=True
        )
        with connection, connection.cursor() as cursor:
            # --skip-name-resolve: a TCP client from 127.0.0.1 is not root@localhost.
            cursor.execute(f"CREATE USER IF NOT EXISTS 'root'@'{self.host}'")
            cursor.execute(f"GRANT ALL ON *.* TO 'root'@'{self.host}' WITH GRANT OPTION")
            cursor.execute(f"CREATE DATABASE IF NOT EXISTS `{DATABASE}`")
        probe_mariadb(url)


def connect_mariadb(url: str) -> pymysql.connections.Connection:
    """A PyMySQL connection to ``mysql://…`` (autocommit)."""
    parsed = ServiceUrl.parse(url)
    return pymysql.connect(
        host=parsed.host,
        port=parsed.port,
        user=parsed.user or "root",
        password=parsed.password or "",
        database=parsed.database,
        autocommit=True,
        connect_timeout=2,
    )


def probe_mariadb(url: str) -> None:
    try:
        connection = connect_mariadb(url)
        with connection, connection.cursor() as cursor:
            cursor.execute("SELECT 1")
    except pymysql.MySQLError as error:
        raise LayerbenchError(f"MariaDB at {url} does not answer: {error}") from None


def probe_socket(path: Path) -> None:
    if not path.is_socket():
        raise LayerbenchError(f"MariaDB has not made its socket {path} yet")
    try:
        connection = pymysql.connect(unix_socket=str(path), user="root", connect_timeout=2)
        connection.close()
    except (pymysql.MySQLError, OSError) as error:
        raise LayerbenchError(f"MariaDB on {path} does not answer: {error}") from None
