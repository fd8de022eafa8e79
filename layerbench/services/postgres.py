"""A throwaway PostgreSQL: initdb into the private directory, trust authentication on loopback
and, placed on a lab host, from its subnet; the socket in the directory too, and a database
named ``layerbench``.

Nothing of it outlives its directory, even killed with SIGKILL: its dynamic shared memory is
files in the data directory (``dynamic_shared_memory_type=mmap``; the default, ``posix``, left
``/dev/shm/PostgreSQL.*`` behind), its main shared memory anonymous (``shared_memory_type``'s
default, ``mmap``), and the small System V segment it keeps besides is recorded in the
directory, to be released with it (:mod:`~layerbench.proc.outside_resources`)."""

import signal
from pathlib import Path

from layerbench.errors import LayerbenchError
from layerbench.proc.outside_resources import record_sysv_segment
from layerbench.services.service import ManagedService

PG_BIN = "/usr/lib/postgresql/15/bin"
SUPERUSER = "layerbench"
DATABASE = "layerbench"


class PostgresService(ManagedService):
    name = "postgres"
    apt_package = "postgresql"
    # SIGINT is PostgreSQL's "fast" shutdown; SIGTERM would wait for every client to leave.
    stop_signal = signal.SIGINT
    port_taken_marker = "could not bind IPv4 address"

    def programs(self) -> dict[str, str]:
        return {"initdb": f"{PG_BIN}/initdb", "postgres": f"{PG_BIN}/postgres"}

    def prepare(self, directory: Path) -> None:
        self.run_setup(
            [
                str(self.find("initdb")),
                "--pgdata",
                str(directory / "data"),
                "--username",
                SUPERUSER,
                "--auth",
                "trust",
                "--encoding",
                "UTF8",
                "--locale",
                "C.UTF-8",
                "--no-sync",
                "--no-instructions",
            ],
            directory,
        )
        # Placed on a lab host, it listens on the host's address: the other hosts of its subnet
        # (the app host) connect from theirs. On loopback, the same line lets no one else in.
        with (directory / "data" / "pg_hba.conf").open("a") as rules:
            rules.write("host all all samenet trust\n")

    def command(self, directory: Path, port: int) -> list[str]:
        return [
            str(self.find("postgres")),
            "-D",
            str(directory / "data"),
            "-p",
            str(port),
            "-c",
            f"listen_addresses={self.host}",
            "-c",
            f"unix_socket_directories={directory}",
            "-c",
            "max_connections=200",
            "-c",
            "logging_collector=off",
            "-c",
            "dynamic_shared_memory_type=mmap",
        ]

    def url_for(self, port: int) -> str:
        return f"postgresql://{SUPERUSER}@{self.host}:{port}/{DATABASE}"

    def maintenance_url(self) -> str:
        """The maintenance database, which exists from the start."""
        return f"postgresql://{SUPERUSER}@{self.host}:{self.port}/postgres"

    def probe(self, url: str) -> None:
        probe_postgres(url)

    def probe_ready(self) -> None:
        probe_postgres(self.maintenance_url())

    def after_ready(self, url: str) -> None:
        import psycopg  # the databases extra's, imported where used

        assert self.directory is not None
        segment = sysv_segment(self.directory / "data")
        if segment is not None:
            record_sysv_segment(self.directory, *segment)

        admin = self.maintenance_url()
        with psycopg.connect(admin, autocommit=True, connect_timeout=5) as connection:
            connection.execute(f'CREATE DATABASE "{DATABASE}"')


def sysv_segment(data: Path) -> tuple[int, int] | None:
    """The key and id of the System V segment a running postmaster keeps, from line 7 of its
    ``postmaster.pid``; None if it names none."""
    try:
        lines = (data / "postmaster.pid").read_text().splitlines()
    except OSError:
        return None
    numbers = lines[6].split() if len(lines) > 6 else []
    if len(numbers) != 2 or not all(number.isdigit() for number in numbers):
        return None
    return int(numbers[0]), int(numbers[1])


def probe_postgres(url: str) -> None:
    import psycopg

    try:
        with psycopg.connect(url, connect_timeout=2) as connection:
            connection.execute("SELECT 1").fetchone()
    except psycopg.Error as error:
        raise LayerbenchError(f"PostgreSQL at {url} does not answer: {first_line(error)}") from None


def first_line(error: BaseException) -> str:
    text = str(error).strip()
    return text.splitlines()[0] if text else type(error).__name__
