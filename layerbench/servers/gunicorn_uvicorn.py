"""gunicorn managing uvicorn workers (the uvicorn-worker package): gunicorn's arbiter forks N
workers and restarts one that dies; each worker is a uvicorn event loop (uvloop and httptools,
or asyncio and h11) running an ASGI application."""

from dataclasses import dataclass, field
from importlib.metadata import version
from typing import Literal

from layerbench.errors import ConfigError
from layerbench.servers.gunicorn_arbiter import GunicornArbiterServer
from layerbench.servers.python_app_server import ASGI_ENTRY
from layerbench.servers.server_settings import Backlog, Processes, Seconds
from layerbench.servers.uvicorn_backlog import deepest_backlog

WORKER_CLASSES = {
    "httptools": "uvicorn_worker.UvicornWorker",  # uvloop and httptools when installed
    "h11": "uvicorn_worker.UvicornH11Worker",  # asyncio and h11
}


@dataclass(frozen=True)
class GunicornUvicornSettings:
    workers: Processes = 1
    http: Literal["httptools", "h11"] = "httptools"
    keep_alive_s: Seconds = 5
    backlog: Backlog = field(default_factory=deepest_backlog)

    def __post_init__(self) -> None:
        if self.workers < 1:
            raise ConfigError("gunicorn needs at least one worker")
        if self.keep_alive_s < 0:
            raise ConfigError("gunicorn's keep_alive_s is 0 or more")


class GunicornUvicornServer(GunicornArbiterServer[GunicornUvicornSettings]):
    name = "gunicorn-uvicorn"
    distribution = "uvicorn-worker"
    module = "uvicorn_worker"
    entry = ASGI_ENTRY

    def versions(self) -> dict[str, str]:
        return {name: version(name) for name in ("gunicorn", "uvicorn-worker", "uvicorn")}

    def worker_class(self) -> str:
        return WORKER_CLASSES[self.settings.http]
