"""uvicorn running an ASGI application: N worker processes (one: uvicorn itself; more: its
supervisor and that many children), each one event loop (uvloop or asyncio) parsing HTTP with
httptools or h11."""

from dataclasses import dataclass, field
from importlib.metadata import version
from typing import Literal

from layerbench.errors import ConfigError
from layerbench.servers.python_app_server import ASGI_ENTRY, PythonAppServer
from layerbench.servers.server_settings import Backlog, Connections, Processes, Seconds
from layerbench.servers.uvicorn_backlog import deepest_backlog


@dataclass(frozen=True)
class UvicornSettings:
    workers: Processes = 1
    loop: Literal["uvloop", "asyncio"] = "uvloop"
    http: Literal["httptools", "h11"] = "httptools"
    keep_alive_s: Seconds = 5
    backlog: Backlog = field(default_factory=deepest_backlog)
    # Connections (and tasks) it takes before it answers 503; 0: no limit (uvicorn's default).
    limit_concurrency: Connections = 0

    def __post_init__(self) -> None:
        if self.workers < 1:
            raise ConfigError("uvicorn needs at least one worker")
        if self.limit_concurrency < 0 or self.keep_alive_s < 0:
            raise ConfigError("uvicorn's limit_concurrency and keep_alive_s are 0 or more")


class UvicornServer(PythonAppServer[UvicornSettings]):
    name = "uvicorn"
    distribution = "uvicorn"
    module = "uvicorn"

    def versions(self) -> dict[str, str]:
        """uvicorn's, and its event loop's and HTTP parser's (asyncio is Python's)."""
        parts = [self.settings.http] + (
            [self.settings.loop] if self.settings.loop != "asyncio" else []
        )
        return {**super().versions(), **{part: version(part) for part in parts}}

    def workers_loading(self) -> int:
        """Its worker processes, each importing the application."""
        return self.settings.workers

    def command(self) -> list[str]:
        limit = self.settings.limit_concurrency
        return [
            *self.python(),
            "-m",
            "uvicorn",
            "--host",
            self.host,
            "--port",
            str(self.port),
            "--workers",
            str(self.settings.workers),
            "--loop",
            self.settings.loop,
            "--http",
            self.settings.http,
            "--timeout-keep-alive",
            str(self.settings.keep_alive_s),
            "--backlog",
            str(self.settings.backlog),
            *(["--limit-concurrency", str(limit)] if limit else []),
            "--interface",
            "asgi3",
            "--lifespan",
            "auto",
            "--no-access-log",
            "--log-level",
            "warning",
            ASGI_ENTRY,
        ]
