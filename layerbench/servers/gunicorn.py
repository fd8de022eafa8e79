"""gunicorn running the reference application: N worker processes (sync, or gthread with M
threads each) on one loopback port; with an access log when asked (``app serve`` keeps one)."""

from dataclasses import dataclass
from typing import Annotated, Literal

from layerbench.errors import ConfigError
from layerbench.servers.gunicorn_arbiter import GunicornArbiterServer
from layerbench.servers.managed_server import LISTEN_BACKLOG
from layerbench.servers.python_app_server import APP_ENTRY
from layerbench.servers.server_settings import (
    MAX_CONNECTIONS,
    Backlog,
    Processes,
    Range,
    Seconds,
    Threads,
)

# gunicorn's default line with the time taken.
# The worker classes that run the application on a pool of --threads threads (sync runs one).
THREADED_WORKERS = ("sync", "gthread")
# gunicorn's own worker classes, by their names: a dotted path would be imported by gunicorn
# (``worker_class=os.system`` was), and the uvicorn worker is the gunicorn-uvicorn adapter's.
WorkerClass = Literal["sync", "gthread", "eventlet", "gevent", "tornado"]
ACCESS_LOG_FORMAT = '%(h)s %(t)s "%(r)s" %(s)s %(b)s %(M)sms "%(f)s" "%(a)s"'


@dataclass(frozen=True)
class GunicornSettings:
    workers: Processes = 1
    worker_class: WorkerClass = "sync"
    threads: Threads = 1
    keep_alive_s: Seconds = 5
    backlog: Backlog = LISTEN_BACKLOG
    # gunicorn's own default: a longer request line gets 414 before the application sees
    # it; 0 lifts the limit.
    limit_request_line: Annotated[int, Range(0, 8190)] = 4094
    # gunicorn's own default: the connections a gthread (or event-loop) worker serves at once;
    # past them, connections wait in the listen backlog (at c=5000, 2 workers serve 2,000).
    worker_connections: Annotated[int, Range(1, MAX_CONNECTIONS)] = 1000

    def __post_init__(self) -> None:
        if self.workers < 1 or self.threads < 1:
            raise ConfigError("gunicorn needs at least one worker of at least one thread")
        if self.worker_connections < 1:
            raise ConfigError("gunicorn's worker_connections is 1 or more")
        if self.limit_request_line < 0:
            raise ConfigError("gunicorn's request line limit is 0 (none) or more bytes")


class GunicornServer(GunicornArbiterServer[GunicornSettings]):
    name = "gunicorn"
    distribution = "gunicorn"
    module = "gunicorn"
    entry = APP_ENTRY

    def threads_per_process(self) -> int | None:
        """Its ``--threads`` (gthread; 1 for the sync worker); None for a worker of greenlets
        or an event loop."""
        if self.settings.worker_class not in THREADED_WORKERS:
            return None
        return self.settings.threads

    def worker_class(self) -> str:
        return self.settings.worker_class

    def worker_options(self) -> list[str]:
        access = ["--access-logfile", "-", "--access-logformat", ACCESS_LOG_FORMAT]
        return [
            "--threads",
            str(self.settings.threads),
            "--limit-request-line",
            str(self.settings.limit_request_line),
            "--worker-connections",
            str(self.settings.worker_connections),
            *(access if self.access_log else []),
        ]
