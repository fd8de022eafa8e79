"""Hypercorn running an ASGI application: N worker processes (with more than one, a parent
that supervises them), each one event loop (uvloop or asyncio)."""

from dataclasses import dataclass
from typing import Literal

from layerbench.errors import ConfigError
from layerbench.servers.managed_server import LISTEN_BACKLOG
from layerbench.servers.python_app_server import ASGI_ENTRY, PythonAppServer
from layerbench.servers.server_settings import Backlog, Processes, Seconds


@dataclass(frozen=True)
class HypercornSettings:
    workers: Processes = 1
    worker_class: Literal["uvloop", "asyncio"] = "uvloop"
    keep_alive_s: Seconds = 5
    backlog: Backlog = LISTEN_BACKLOG

    def __post_init__(self) -> None:
        if self.workers < 1:
            raise ConfigError("hypercorn needs at least one worker")
        if self.keep_alive_s < 0:
            raise ConfigError("hypercorn's keep_alive_s is 0 or more")


class HypercornServer(PythonAppServer[HypercornSettings]):
    name = "hypercorn"
    distribution = "hypercorn"
    module = "hypercorn"

    def workers_loading(self) -> int:
        """Its worker processes, each importing the application."""
        return self.settings.workers

    def command(self) -> list[str]:
        return [
            *self.python(),
            "-m",
            "hypercorn",
            "--bind",
            self.bind_address,
            "--workers",
            str(self.settings.workers),
            "--worker-class",
            self.settings.worker_class,
            "--keep-alive",
            str(self.settings.keep_alive_s),
            "--backlog",
            str(self.settings.backlog),
            "--log-level",
            "warning",
            ASGI_ENTRY,
        ]
