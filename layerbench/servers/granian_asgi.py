"""granian (a Rust HTTP server) running an ASGI application through its ASGI interface: N
worker processes, each a Rust runtime of M threads feeding one Python event loop (uvloop or
asyncio). The ``granian`` adapter is the same server's WSGI interface."""

from dataclasses import dataclass
from typing import Literal

from layerbench.errors import ConfigError
from layerbench.servers.managed_server import LISTEN_BACKLOG
from layerbench.servers.python_app_server import ASGI_ENTRY, PythonAppServer
from layerbench.servers.server_settings import Backlog, Connections, Processes, Threads


@dataclass(frozen=True)
class GranianAsgiSettings:
    workers: Processes = 2
    runtime_threads: Threads = 1
    loop: Literal["uvloop", "asyncio"] = "uvloop"
    backlog: Backlog = LISTEN_BACKLOG
    # The requests a worker serves at once (--backpressure); 0: granian's default, backlog /
    # workers, past which connections wait unserved (at c=5000 and backlog 4096, 904 of them).
    backpressure: Connections = 0

    def __post_init__(self) -> None:
        if min(self.workers, self.runtime_threads) < 1:
            raise ConfigError("granian's workers and runtime threads must be at least 1")
        if self.backpressure < 0:
            raise ConfigError("granian's backpressure is 0 (its default) or more requests")


class GranianAsgiServer(PythonAppServer[GranianAsgiSettings]):
    name = "granian-asgi"
    distribution = "granian"
    module = "granian"

    def workers_loading(self) -> int:
        """Its worker processes, each importing the application."""
        return self.settings.workers

    def command(self) -> list[str]:
        return [
            *self.python(),
            "-m",
            "granian",
            "--interface",
            "asgi",
            "--host",
            self.host,
            "--port",
            str(self.port),
            "--workers",
            str(self.settings.workers),
            "--runtime-threads",
            str(self.settings.runtime_threads),
            "--loop",
            self.settings.loop,
            "--backlog",
            str(self.settings.backlog),
            *(
                ["--backpressure", str(self.settings.backpressure)]
                if self.settings.backpressure
                else []
            ),
            "--no-ws",
            "--log-level",
            "warning",
            ASGI_ENTRY,
        ]
