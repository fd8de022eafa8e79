"""The stores ``layerbench writes`` measures, by name, each on the lab's throwaway services:

relstorage-postgres  ZODB on RelStorage 4.3, PostgreSQL through psycopg2 (history-preserving)
relstorage-mariadb   ZODB on RelStorage 4.3, MariaDB through MySQLdb (history-preserving;
                     RelStorage's MySQL adapter with the project's MariaDB workarounds,
                     :mod:`layerbench_sites.relstorage_mariadb`)
zeo                  ZODB on a ZEO server (ZEO's own runzeo over a FileStorage) on loopback TCP
filestorage          ZODB on a FileStorage in the writers' own process (no server)
site-postgres        the site's own SQL write path (a comment through the data layer's
site-mariadb         repository, as the write rung writes it), on PostgreSQL or MariaDB

A MariaDB store may name its InnoDB profile, ``relstorage-mariadb:seed003``: a MariaDB of that
profile beside the run's own (``--set mariadb.profile``), so that one run sets the profiles side
by side, measured in the same passes.

Each store is started in :class:`StoreRunning`: its ZEO server, or a database of its own on the
run's one PostgreSQL or MariaDB (:class:`SharedServices`: MariaDB with the run's
``mariadb.profile``), a directory of its own, and the target the writers open
(:mod:`writes_worker`); ``sessions`` are the processes that play the database role.
"""

import shutil
import socket
import sys
import time
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path

from layerbench.errors import ServerStartError
from layerbench.lab.service_settings import service_arguments
from layerbench.proc.ports import LOOPBACK, free_port
from layerbench.proc.process import ManagedProcess
from layerbench.proc.start_stop import StartStop
from layerbench.proc.work_dirs import make_work_directory
from layerbench.servers.server_settings import SettingsBook
from layerbench.services.mariadb import connect_mariadb
from layerbench.services.registry import service_class
from layerbench.services.service import ManagedService
from layerbench.services.urls import ServiceUrl
from layerbench.typed_documents import JsonObject

# Store name → the service it needs (None: none).
STORES: dict[str, str | None] = {
    "relstorage-postgres": "postgres",
    "relstorage-mariadb": "mariadb",
    "zeo": None,
    "filestorage": None,
    "site-postgres": "postgres",
    "site-mariadb": "mariadb",
}
ZODB_STORES = ("relstorage-postgres", "relstorage-mariadb", "zeo", "filestorage")


def split_store(name: str) -> tuple[str, str | None]:
    """``relstorage-mariadb:seed003`` → the store, and the MariaDB profile it names (or None)."""
    store, _, profile = name.partition(":")
    return store, profile or None


ZEO_START_TIMEOUT_S = 30.0
RUNZEO = (sys.executable, "-m", "ZEO.runzeo")


@dataclass
class SharedServices:
    """The run's services, each started once, at the first store that needs it, and stopped
    with the run's ``stack``."""

    stack: ExitStack
    book: SettingsBook = field(default_factory=dict)
    started: dict[str, ManagedService] = field(default_factory=dict, init=False)

    def database_url(self, kind: str, database: str, profile: str | None = None) -> tuple[str, int]:
        """The URL of a new database named ``database`` on the ``kind`` service (MariaDB of
        ``profile``, when given), and the service's session."""
        key = f"{kind}:{profile}" if profile else kind
        service = self.started.get(key)
        if service is None:
            arguments = service_arguments(self.book, kind)
            if profile:
                arguments["profile"] = profile
            service = service_class(kind)(**arguments)
            self.stack.enter_context(service)
            self.started[key] = service
        admin = ServiceUrl.parse(service.url)
        if kind == "postgres":
            import psycopg  # the databases extra's, imported where used

            with psycopg.connect(service.url, autocommit=True) as connection:
                connection.execute(f'CREATE DATABASE "{database}"')
        else:
            with connect_mariadb(service.url) as mariadb, mariadb.cursor() as cursor:
                cursor.execute(f"CREATE DATABASE `{database}`")
        scheme = "postgresql" if kind == "postgres" else "mysql"
        return f"{scheme}://{admin.user}@{admin.host}:{admin.port}/{database}", service.pid


@dataclass
class StoreRunning(StartStop):
    """Use as a context manager: the store's server runs inside it."""

    name: str
    services: SharedServices
    # What the writers open (layerbench_sites.writes_worker): its kind and where it is.
    target: JsonObject = field(default_factory=dict, init=False)
    sessions: set[int] = field(default_factory=set, init=False)
    directory: Path | None = field(default=None, init=False)
    _stack: ExitStack = field(default_factory=ExitStack, init=False)

    def start(self) -> "StoreRunning":
        try:
            self.directory = make_work_directory(f"layerbench-writes-{self.name}-")
            self._stack.callback(shutil.rmtree, self.directory, ignore_errors=True)
            self._start(self.directory)
        except BaseException:
            self._stack.close()
            raise
        return self

    def _start(self, directory: Path) -> None:
        store, profile = split_store(self.name)
        kind = STORES[store]
        if self.name == "filestorage":
            self.target = {"kind": "filestorage", "path": str(directory / "Data.fs")}
            return
        if self.name == "zeo":
            port = free_port()
            server = ManagedProcess(
                "zeo",
                [*RUNZEO, "-a", f"{LOOPBACK}:{port}", "-f", str(directory / "Data.fs")],
                log_path=directory / "zeo.log",
                cwd=directory,
            )
            self._stack.enter_context(server)
            _wait_for_port(server, port)
            self.sessions.add(server.pid)
            self.target = {"kind": "zeo", "address": [LOOPBACK, port]}
            return
        assert kind is not None
        database = self.name.replace("-", "_").replace(":", "_")
        url, session = self.services.database_url(kind, database, profile)
        self.sessions.add(session)
        if store.startswith("site-"):
            self.target = {"kind": "site", "url": url}
        elif kind == "postgres":
            parsed = ServiceUrl.parse(url)
            dsn = (
                f"host={parsed.host} port={parsed.port} user={parsed.user} dbname={parsed.database}"
            )
            self.target = {"kind": store, "dsn": dsn, "keep_history": True}
        else:
            parsed = ServiceUrl.parse(url)
            params: JsonObject = {
                "host": parsed.host,
                "port": parsed.port,
                "user": parsed.user or "root",
            }
            params["db"] = parsed.database or ""
            self.target = {"kind": store, "params": params, "keep_history": True}

    def stop(self) -> None:
        self._stack.close()


def _wait_for_port(server: ManagedProcess, port: int) -> None:
    deadline = time.monotonic() + ZEO_START_TIMEOUT_S
    while True:
        if server.returncode() is not None:
            raise ServerStartError("zeo", "runzeo exited", server.log_tail())
        try:
            with socket.create_connection((LOOPBACK, port), timeout=1):
                return
        except OSError:
            if time.monotonic() > deadline:
                raise ServerStartError("zeo", "runzeo did not listen", server.log_tail()) from None
            time.sleep(0.05)
