"""uWSGI running the reference application in Debian's python3 plugin (it embeds
``/usr/bin/python3``; :mod:`layerbench.servers.app_script` brings ``.venv`` in): a master and N
worker processes of M threads, speaking HTTP through its own router (``--http``, the default),
HTTP in the workers themselves (``http_socket=on``), or the uwsgi protocol on a unix socket for
nginx in front (:mod:`layerbench.servers.uwsgi_nginx`)."""

import subprocess
from dataclasses import dataclass
from pathlib import Path

from layerbench.errors import ConfigError, MissingBinaryError
from layerbench.proc.binaries import find_program
from layerbench.proc.ports import LOOPBACK
from layerbench.servers.app_script import SCRIPT_NAME
from layerbench.servers.embedded_app import EmbeddedApp
from layerbench.servers.embedded_python import embedded_python_environment
from layerbench.servers.managed_server import LISTEN_BACKLOG, ManagedServer
from layerbench.servers.server_settings import Backlog, Processes, Threads

APT_PACKAGES = "uwsgi-core uwsgi-plugin-python3"
PLUGIN_DIR = Path("/usr/lib/uwsgi/plugins")
PYTHON_PLUGIN = "python3"
# What uWSGI behind nginx keeps of a request's body in memory; the rest goes to a file.
POST_BUFFERING_BYTES = 64 * 1024
SOCKET_NAME = "uwsgi.sock"


@dataclass(frozen=True)
class UwsgiSettings:
    processes: Processes = 2
    threads: Threads = 1
    listen: Backlog = LISTEN_BACKLOG
    # HTTP straight into the workers instead of through the router process.
    http_socket: bool = False

    def __post_init__(self) -> None:
        if self.processes < 1 or self.threads < 1:
            raise ConfigError("uwsgi needs at least one process of at least one thread")


class UwsgiServer(ManagedServer):
    name = "uwsgi"

    def __init__(
        self,
        workdir: Path,
        port: int,
        app: EmbeddedApp,
        settings: UwsgiSettings,
        cpus: frozenset[int] | None = None,
        *,
        host: str = LOOPBACK,
        unix_socket: bool = False,
    ) -> None:
        """With ``unix_socket``, it speaks the uwsgi protocol on ``socket_path`` and ``port``
        is unused."""
        super().__init__(workdir, port, cpus, host=host)
        self.binary = find_program("uwsgi-core", APT_PACKAGES)
        plugin = PLUGIN_DIR / f"{PYTHON_PLUGIN}_plugin.so"
        if not plugin.exists():
            raise MissingBinaryError(str(plugin), APT_PACKAGES)
        self.app = app
        self.settings = settings
        self.unix_socket = unix_socket
        self.ready_path = app.ready_path

    @property
    def socket_path(self) -> Path:
        return self.workdir / SOCKET_NAME

    def version(self) -> str:
        completed = subprocess.run(
            [str(self.binary), "--version"], capture_output=True, text=True, check=False
        )
        return completed.stdout.strip()

    def workers_loading(self) -> int:
        """One: its master loads the application before it forks the workers (no
        ``--lazy-apps``), so each worker is a copy of a process that has it loaded."""
        return 1

    def prepare(self) -> None:
        self.workdir.chmod(0o755)  # nginx's unprivileged workers reach the socket in it
        self.app.install(self.workdir, run_as=None)

    def command(self) -> list[str]:
        settings = self.settings
        plugins = PYTHON_PLUGIN
        if self.unix_socket:
            # The body read whole before the application is called (nginx holds it to its
            # client_max_body_size; over 64 KiB into a file): an application that answers
            # without reading it (a 413) would otherwise leave the body on the socket, which
            # uWSGI then closes with it unread, a reset where nginx reads the answer (a 502).
            listener = [
                "--socket",
                str(self.socket_path),
                "--chmod-socket=666",
                f"--post-buffering={POST_BUFFERING_BYTES}",
            ]
        elif settings.http_socket:
            listener = ["--http11-socket", f"{self.host}:{self.port}"]
        else:
            plugins += ",http"
            listener = ["--http", f"{self.host}:{self.port}", "--http-keepalive"]
        return [
            str(self.binary),
            "--plugin-dir",
            str(PLUGIN_DIR),
            "--plugin",
            plugins,
            *listener,
            "--master",
            "--processes",
            str(settings.processes),
            "--threads",
            str(settings.threads),
            "--listen",
            str(settings.listen),
            "--wsgi-file",
            str(self.workdir / SCRIPT_NAME),
            "--chdir",
            str(self.workdir),
            "--need-app",
            "--die-on-term",
            "--disable-logging",
            "--log-5xx",
        ]

    def environment(self) -> dict[str, str]:
        return embedded_python_environment()

    def probe(self) -> str | None:
        if self.unix_socket:
            # Nothing speaks HTTP here: ready once its socket exists (--need-app: the
            # application loaded first); nginx in front then asks it for real.
            return None if self.socket_path.exists() else f"no socket at {self.socket_path}"

        return super().probe()
