"""granian (a Rust HTTP server) running the reference application through its WSGI interface:
N worker processes, each running the application on M blocking threads."""

from dataclasses import dataclass

from layerbench.errors import ConfigError
from layerbench.servers.managed_server import LISTEN_BACKLOG
from layerbench.servers.python_app_server import APP_ENTRY, PythonAppServer
from layerbench.servers.server_settings import Backlog, Processes, Threads


@dataclass(frozen=True)
class GranianSettings:
    workers: Processes = 2
    blocking_threads: Threads = 1
    runtime_threads: Threads = 1
    backlog: Backlog = LISTEN_BACKLOG

    def __post_init__(self) -> None:
        if min(self.workers, self.blocking_threads, self.runtime_threads) < 1:
            raise ConfigError("granian's workers and threads must be at least 1")


class GranianServer(PythonAppServer[GranianSettings]):
    name = "granian"
    distribution = "granian"
    module = "granian"

    def threads_per_process(self) -> int:
        """Its blocking threads, which run the application."""
        return self.settings.blocking_threads

    def workers_loading(self) -> int:
        """Its worker processes, each importing the application."""
        return self.settings.workers

    def command(self) -> list[str]:
        return [
            *self.python(),
            "-m",
            "granian",
            "--interface",
            "wsgi",
            "--host",
            self.host,
            "--port",
            str(self.port),
            "--workers",
            str(self.settings.workers),
            "--blocking-threads",
            str(self.settings.blocking_threads),
            "--runtime-threads",
            str(self.settings.runtime_threads),
            "--backlog",
            str(self.settings.backlog),
            "--no-ws",
            "--log-level",
            "warning",
            APP_ENTRY,
        ]
