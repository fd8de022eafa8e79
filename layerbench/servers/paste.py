"""paste.httpserver running the reference application: one process, a pool of M threads (seed
003's threads against mod_wsgi's processes)."""

from dataclasses import dataclass

from layerbench.errors import ConfigError
from layerbench.servers.managed_server import LISTEN_BACKLOG
from layerbench.servers.python_app_server import PythonAppServer
from layerbench.servers.server_settings import Backlog, Threads


@dataclass(frozen=True)
class PasteSettings:
    threads: Threads = 10
    backlog: Backlog = LISTEN_BACKLOG

    def __post_init__(self) -> None:
        if self.threads < 1:
            raise ConfigError("paste needs at least one thread")


class PasteServer(PythonAppServer[PasteSettings]):
    name = "paste"
    distribution = "paste"
    module = "paste.httpserver"

    def threads_per_process(self) -> int:
        return self.settings.threads

    def command(self) -> list[str]:
        return [
            *self.python(),
            "-m",
            "layerbench.servers.paste_main",
            self.host,
            str(self.port),
            str(self.settings.threads),
            str(self.settings.backlog),
        ]
