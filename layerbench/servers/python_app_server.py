"""A server that runs the reference application in layerbench's own Python (``.venv``): it is
configured from the environment (:mod:`layerbench_sites.app.app_config`) and imported by its module
path, ``layerbench_sites.app.entry:application``."""

import importlib.util
import os
import sys
from importlib.metadata import version
from pathlib import Path
from typing import Generic, TypeVar

from layerbench.errors import MissingPackageError
from layerbench.proc.ports import LOOPBACK
from layerbench.servers.managed_server import ManagedServer
from layerbench.site_contract import DB_PATH_VARIABLE, HEALTH_PATH, THREADS_VARIABLE

APP_ENTRY = "layerbench_sites.app.entry:application"
# What an ASGI server imports: the ASGI application $LAYERBENCH_ASGI_APP names.
ASGI_ENTRY = "layerbench_sites.app.asgi_entry:application"
SettingsT = TypeVar("SettingsT")


class PythonAppServer(ManagedServer, Generic[SettingsT]):
    ready_path = HEALTH_PATH
    # The distribution whose version is the server's, and the module that runs it.
    distribution: str
    module: str

    def __init__(
        self,
        workdir: Path,
        port: int,
        db_path: Path,
        settings: SettingsT,
        cpus: frozenset[int] | None = None,
        *,
        host: str = LOOPBACK,
        app_environment: dict[str, str] | None = None,
        access_log: bool = False,
    ) -> None:
        super().__init__(workdir, port, cpus, host=host)
        if importlib.util.find_spec(self.module) is None:
            raise MissingPackageError(self.distribution, f"pip install {self.distribution}")
        self.db_path = db_path
        self.settings = settings
        self.app_environment = app_environment or {}
        # A line per request on its stderr (app serve's log), where the server can keep one.
        self.access_log = access_log

    @property
    def bind_address(self) -> str:
        """HOST:PORT, an IPv6 host in brackets."""
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"{host}:{self.port}"

    def version(self) -> str:
        return version(self.distribution)

    def python(self) -> list[str]:
        return [sys.executable]

    def threads_per_process(self) -> int | None:
        """The threads each of its processes runs the application on, as its settings say;
        None when it does not run it on a pool of threads (an event loop)."""
        return None

    def environment(self) -> dict[str, str]:
        threads = self.threads_per_process()
        told = {} if threads is None else {THREADS_VARIABLE: str(threads)}
        return {
            **os.environ,
            **self.app_environment,
            DB_PATH_VARIABLE: str(self.db_path),
            **told,
        }
