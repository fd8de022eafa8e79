"""gunicorn running the reference application, N worker processes on one loopback port."""

import os
import sys
from dataclasses import dataclass
from importlib.metadata import version
from pathlib import Path

from layerbench.app.settings import DB_PATH_VARIABLE
from layerbench.app.wsgi import HEALTH_PATH
from layerbench.servers.managed_server import ManagedServer
from layerbench.servers.ports import LOOPBACK

APP_ENTRY = "layerbench.app.entry:application"


@dataclass(frozen=True)
class GunicornSettings:
    workers: int = 1
    worker_class: str = "sync"
    threads: int = 1
    keep_alive_s: int = 5


class GunicornServer(ManagedServer):
    name = "gunicorn"
    ready_path = HEALTH_PATH

    def __init__(
        self,
        workdir: Path,
        port: int,
        db_path: Path,
        settings: GunicornSettings = GunicornSettings(),
        cpus: frozenset[int] | None = None,
        *,
        host: str = LOOPBACK,
        app_environment: dict[str, str] | None = None,
    ) -> None:
        super().__init__(workdir, port, cpus, host=host)
        self.db_path = db_path
        self.settings = settings
        self.app_environment = app_environment or {}

    def version(self) -> str:
        return version("gunicorn")

    def command(self) -> list[str]:
        return [
            sys.executable,
            "-m",
            "gunicorn",
            "--bind",
            f"[{self.host}]:{self.port}" if ":" in self.host else f"{self.host}:{self.port}",
            "--workers",
            str(self.settings.workers),
            "--worker-class",
            self.settings.worker_class,
            "--threads",
            str(self.settings.threads),
            "--keep-alive",
            str(self.settings.keep_alive_s),
            "--worker-tmp-dir",
            str(self.workdir),
            "--no-control-socket",
            "--error-logfile",
            "-",
            "--log-level",
            "warning",
            APP_ENTRY,
        ]

    def environment(self) -> dict[str, str]:
        return {**os.environ, **self.app_environment, DB_PATH_VARIABLE: str(self.db_path)}
