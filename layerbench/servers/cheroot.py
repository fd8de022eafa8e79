"""cheroot (CherryPy's server) running the reference application: one process, a pool of M
threads."""

from dataclasses import dataclass

from layerbench.errors import ConfigError
from layerbench.servers.managed_server import LISTEN_BACKLOG
from layerbench.servers.python_app_server import APP_ENTRY, PythonAppServer
from layerbench.servers.server_settings import Backlog, Threads


@dataclass(frozen=True)
class CherootSettings:
    threads: Threads = 10
    backlog: Backlog = LISTEN_BACKLOG

    def __post_init__(self) -> None:
        if self.threads < 1:
            raise ConfigError("cheroot needs at least one thread")


class CherootServer(PythonAppServer[CherootSettings]):
    name = "cheroot"
    distribution = "cheroot"
    module = "cheroot"

    def threads_per_process(self) -> int:
        return self.settings.threads

    def command(self) -> list[str]:
        return [
            *self.python(),
            "-m",
            "cheroot",
            "--bind",
            self.bind_address,
            "--threads",
            str(self.settings.threads),
            "--max-threads",
            str(self.settings.threads),
            "--request-queue-size",
            str(self.settings.backlog),
            APP_ENTRY,
        ]
