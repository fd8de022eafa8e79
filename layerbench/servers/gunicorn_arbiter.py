"""gunicorn's arbiter running N worker processes of one worker class on one loopback port: the
command that gunicorn's own workers (:mod:`layerbench.servers.gunicorn`) and uvicorn's
(:mod:`layerbench.servers.gunicorn_uvicorn`) share; each adapter names its worker class, its
own options and the application it imports."""

from abc import abstractmethod
from typing import Protocol, TypeVar

from layerbench.servers.python_app_server import PythonAppServer


class ArbiterSettings(Protocol):
    """What every gunicorn adapter's settings have."""

    @property
    def workers(self) -> int: ...

    @property
    def keep_alive_s(self) -> int: ...

    @property
    def backlog(self) -> int: ...


ArbiterSettingsT = TypeVar("ArbiterSettingsT", bound=ArbiterSettings)


class GunicornArbiterServer(PythonAppServer[ArbiterSettingsT]):
    # What the workers import: APP_ENTRY (WSGI) or ASGI_ENTRY.
    entry: str

    @abstractmethod
    def worker_class(self) -> str:
        """gunicorn's --worker-class."""

    def worker_options(self) -> list[str]:
        """The adapter's own options, after those every gunicorn adapter passes."""
        return []

    def workers_loading(self) -> int:
        """Its worker processes, each importing the application."""
        return self.settings.workers

    def command(self) -> list[str]:
        return [
            *self.python(),
            "-m",
            "gunicorn",
            "--bind",
            self.bind_address,
            "--workers",
            str(self.settings.workers),
            "--worker-class",
            self.worker_class(),
            "--keep-alive",
            str(self.settings.keep_alive_s),
            "--backlog",
            str(self.settings.backlog),
            *self.worker_options(),
            "--worker-tmp-dir",
            str(self.workdir),
            "--no-control-socket",
            "--error-logfile",
            "-",
            "--log-level",
            "warning",
            self.entry,
        ]
