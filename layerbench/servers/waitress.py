"""waitress running the reference application: one process, M threads (it has no workers); with
an access log when asked (``app serve`` keeps one: waitress has none, the application writes it).
Its event loop reads every request whole before a thread gets it, so slow clients hold none."""

from dataclasses import dataclass
from typing import Annotated

from layerbench.errors import ConfigError
from layerbench.servers.managed_server import LISTEN_BACKLOG
from layerbench.servers.python_app_server import APP_ENTRY, PythonAppServer
from layerbench.servers.server_settings import MAX_CONNECTIONS, Backlog, Range, Threads

ACCESS_LOGGED_ENTRY = "layerbench_sites.app.access_logged_entry:application"
MAX_BODY_SIZE = 1 << 30  # waitress's default


@dataclass(frozen=True)
class WaitressSettings:
    threads: Threads = 4
    connection_limit: Annotated[int, Range(1, MAX_CONNECTIONS)] = 100
    backlog: Backlog = LISTEN_BACKLOG
    # The largest request body waitress reads (its own default: 1 GiB, into a file); a larger
    # one is 413 from waitress, as soon as it is over (``app serve``: the sites' limit).
    max_request_body_size: Annotated[int, Range(1, MAX_BODY_SIZE, "bytes")] = MAX_BODY_SIZE

    def __post_init__(self) -> None:
        if self.threads < 1 or self.connection_limit < 1:
            raise ConfigError("waitress needs at least one thread and one connection")


class WaitressServer(PythonAppServer[WaitressSettings]):
    name = "waitress"
    distribution = "waitress"
    module = "waitress"

    def threads_per_process(self) -> int:
        return self.settings.threads

    def command(self) -> list[str]:
        return [
            *self.python(),
            "-m",
            "waitress",
            f"--listen={self.bind_address}",
            f"--threads={self.settings.threads}",
            f"--connection-limit={self.settings.connection_limit}",
            f"--backlog={self.settings.backlog}",
            f"--max-request-body-size={self.settings.max_request_body_size}",
            ACCESS_LOGGED_ENTRY if self.access_log else APP_ENTRY,
        ]
