"""A throwaway MariaDB: mariadb-install-db into the private directory, the server with
``--no-defaults`` (no /etc/mysql), listening on its host's address (loopback unless placed on a
lab host) and on a socket in the directory, and a database named ``layerbench`` that root
reaches over TCP without a password from any address (``root@'%'``: the lab's app hosts connect
from addresses of their own; the server is throwaway and reachable only on loopback or inside
the lab's namespaces).

Its InnoDB settings come in profiles (``--set mariadb.profile=NAME``): ``default``, the lab's
usual small instance, and ``seed003``, the my.cnf seed 003 wrote for RelStorage's writes,
adapted: ``innodb_additional_mem_pool_size=20M`` is left out (InnoDB's own memory pool went in
MySQL 5.7 and MariaDB 10.2, and the server refuses the option), and ``innodb_file_per_table``
is MariaDB's default already (given all the same)."""

from pathlib import Path
from typing import TYPE_CHECKING

from layerbench.errors import ConfigError, LayerbenchError
from layerbench.services.service import START_TIMEOUT_S, ManagedService
from layerbench.services.urls import ServiceUrl
from layerbench.words import did_you_mean

if TYPE_CHECKING:  # PyMySQL is the databases extra's, imported where used
    import pymysql

DATABASE = "layerbench"
SOCKET = "mariadb.sock"
# What each profile gives the server (and mariadb-install-db, which makes the system tablespace).
PROFILES: dict[str, tuple[str, ...]] = {
    "default": ("--innodb-buffer-pool-size=64M", "--innodb-log-file-size=16M"),
    "seed003": (
        "--innodb-data-file-path=ibdata1:10M:autoextend",
        "--innodb-buffer-pool-size=256M",
        "--innodb-log-file-size=64M",
        "--innodb-log-buffer-size=8M",
        "--innodb-flush-log-at-trx-commit=1",
        "--innodb-file-per-table=ON",
    ),
}


class MariadbService(ManagedService):
    name = "mariadb"
    apt_package = "mariadb-server"
    port_taken_marker = "Address already in use"

    def __init__(
        self,
        *,
        profile: str = "default",
        cpus: frozenset[int] | None = None,
        start_timeout_s: float = START_TIMEOUT_S,
    ) -> None:
        if profile not in PROFILES:
            head = f"mariadb.profile={profile}: one of {', '.join(PROFILES)}"
            raise ConfigError(did_you_mean(head, profile, PROFILES, ""))
        super().__init__(cpus=cpus, start_timeout_s=start_timeout_s)
        self.profile = profile

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
            *PROFILES[self.profile],
        ]
        if self.run_as is not None:
            command.append(f"--user={self.run_as.name}")
        self.run_setup(command, directory)

    def command(self, directory: Path, port: int) -> list[str]:
        return self.server_command(directory, port, self.host)

    def server_command(self, directory: Path, port: int, host: str) -> list[str]:
        """The server's command line with its data in ``directory``, on ``host``:``port``."""
        command = [
            str(self.find("mariadbd")),
            "--no-defaults",
            f"--datadir={directory / 'data'}",
            f"--socket={directory / SOCKET}",
            f"--pid-file={directory / 'mariadb.pid'}",
            f"--tmpdir={directory}",
            f"--port={port}",
            f"--bind-address={host}",
            "--skip-name-resolve",
            "--log-error",  # to stderr, which is our log
            "--max-connections=500",
            *PROFILES[self.profile],
        ]
        if self.run_as is not None:
            command.append(f"--user={self.run_as.name}")
        return command

    def url_for(self, port: int) -> str:
        return mariadb_url(self.host, port)

    def probe(self, url: str) -> None:
        probe_mariadb(url)

    def probe_ready(self) -> None:
        """Over the socket, as root@localhost: the TCP account comes with after_ready."""
        assert self.directory is not None
        probe_socket(self.directory / SOCKET)

    def after_ready(self, url: str) -> None:
        import pymysql

        assert self.directory is not None
        connection = pymysql.connect(
            unix_socket=str(self.directory / SOCKET), user="root", autocommit=True
        )
        with connection, connection.cursor() as cursor:
            # --skip-name-resolve: a TCP client from 127.0.0.1 is not root@localhost; root over
            # TCP is root@'%', from this host's own address or an app host's.
            cursor.execute("CREATE USER IF NOT EXISTS 'root'@'%'")
            cursor.execute("GRANT ALL ON *.* TO 'root'@'%' WITH GRANT OPTION")
            cursor.execute(f"CREATE DATABASE IF NOT EXISTS `{DATABASE}`")
        probe_mariadb(url)


def mariadb_url(host: str, port: int) -> str:
    """The URL of the throwaway database on the server at ``host``:``port``."""
    return f"mysql://root@{host}:{port}/{DATABASE}"


def connect_mariadb(
    url: str,
    *,
    connect_timeout_s: float = 2,
    client_flag: int = 0,
    init_command: str | None = None,
) -> "pymysql.connections.Connection":
    """A PyMySQL connection to ``mysql://…`` (autocommit, utf8mb4); ``client_flag`` and
    ``init_command`` as PyMySQL takes them."""
    import pymysql

    parsed = ServiceUrl.parse(url)
    return pymysql.connect(
        host=parsed.host,
        port=parsed.port,
        user=parsed.user or "root",
        password=parsed.password or "",
        database=parsed.database,
        autocommit=True,
        charset="utf8mb4",
        client_flag=client_flag,
        init_command=init_command,
        connect_timeout=connect_timeout_s,
    )


def probe_mariadb(url: str) -> None:
    import pymysql

    try:
        connection = connect_mariadb(url)
        with connection, connection.cursor() as cursor:
            cursor.execute("SELECT 1")
    except pymysql.MySQLError as error:
        raise LayerbenchError(f"MariaDB at {url} does not answer: {error}") from None


def probe_socket(path: Path) -> None:
    if not path.is_socket():
        raise LayerbenchError(f"MariaDB has not made its socket {path} yet")
    import pymysql

    try:
        connection = pymysql.connect(unix_socket=str(path), user="root", connect_timeout=2)
        connection.close()
    except (pymysql.MySQLError, OSError) as error:
        raise LayerbenchError(f"MariaDB on {path} does not answer: {error}") from None
