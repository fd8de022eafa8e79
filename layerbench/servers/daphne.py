"""Daphne (Django Channels' server, on Twisted) running an ASGI application: one process, one
Twisted reactor; it has no workers. It listens through a Twisted endpoint string, which sets
the backlog (Twisted's own is 50: connections refused at c=1000)."""

from dataclasses import dataclass

from layerbench.errors import ConfigError
from layerbench.servers.managed_server import LISTEN_BACKLOG
from layerbench.servers.python_app_server import ASGI_ENTRY, PythonAppServer
from layerbench.servers.server_settings import Backlog, Seconds


@dataclass(frozen=True)
class DaphneSettings:
    backlog: Backlog = LISTEN_BACKLOG
    # Seconds a request may take before Daphne answers 503 itself; 0: no limit.
    http_timeout_s: Seconds = 0

    def __post_init__(self) -> None:
        if self.backlog < 1 or self.http_timeout_s < 0:
            raise ConfigError("daphne's backlog is 1 or more and its http_timeout_s 0 or more")


class DaphneServer(PythonAppServer[DaphneSettings]):
    name = "daphne"
    distribution = "daphne"
    module = "daphne"

    @property
    def endpoint(self) -> str:
        """Twisted's endpoint description: a colon in an IPv6 host is escaped."""
        host = self.host.replace(":", "\\:")
        return f"tcp:port={self.port}:interface={host}:backlog={self.settings.backlog}"

    def command(self) -> list[str]:
        timeout = self.settings.http_timeout_s
        return [
            *self.python(),
            "-m",
            "daphne",
            "--endpoint",
            self.endpoint,
            *(["--http-timeout", str(timeout)] if timeout else []),
            "--verbosity",
            "0",
            ASGI_ENTRY,
        ]
