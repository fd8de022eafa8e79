"""Apache mod_wsgi running the reference application, in the two modes seed 000 compared:
embedded (the application in Apache's own children, as many as the MPM runs) and daemon
(``WSGIDaemonProcess``: P processes of T threads, Apache's children only pass requests on).

``preload`` imports the application when a process starts (``WSGIImportScript`` into the
global application group) instead of on its first request (seed 004's first-hit cost)."""

from dataclasses import dataclass
from pathlib import Path

from layerbench.errors import ConfigError
from layerbench.proc.ports import LOOPBACK
from layerbench.servers.apache import ApacheServer, ApacheSettings
from layerbench.servers.app_script import SCRIPT_NAME
from layerbench.servers.embedded_app import EmbeddedApp
from layerbench.servers.embedded_python import embedded_python_environment
from layerbench.servers.server_settings import Backlog, Processes, Threads

APT_PACKAGE = "libapache2-mod-wsgi-py3"
PROCESS_GROUP = "layerbench"
# What a daemon process's start may add to the server's: its interpreter and the application.
DAEMON_PROCESS_START_S = 2.0


@dataclass(frozen=True)
class ModWsgiEmbeddedSettings:
    preload: bool = True


@dataclass(frozen=True)
class ModWsgiDaemonSettings:
    processes: Processes = 2
    threads: Threads = 15
    preload: bool = True
    listen_backlog: Backlog = 1024

    def __post_init__(self) -> None:
        if self.processes < 1 or self.threads < 1:
            raise ConfigError("mod_wsgi-daemon needs at least one process of one thread")


class ModWsgiServer(ApacheServer):
    modules = (("wsgi_module", "mod_wsgi.so"),)
    module_package = APT_PACKAGE

    def __init__(
        self,
        workdir: Path,
        port: int,
        app: EmbeddedApp,
        settings: ApacheSettings,
        *,
        mode: ModWsgiEmbeddedSettings | ModWsgiDaemonSettings,
        cpus: frozenset[int] | None = None,
        host: str = LOOPBACK,
    ) -> None:
        super().__init__(workdir, port, settings, cpus, host=host)
        self.app = app
        self.mode = mode
        self.name = (
            "mod_wsgi-daemon" if isinstance(mode, ModWsgiDaemonSettings) else "mod_wsgi-embedded"
        )
        self.ready_path = app.ready_path
        self.script = workdir / SCRIPT_NAME
        if isinstance(mode, ModWsgiDaemonSettings):
            # Every daemon process imports the application as it starts, all of them on the
            # server's CPUs: seed 000's 20 processes took over the 20 s a start is given.
            self.start_timeout_s += DAEMON_PROCESS_START_S * mode.processes

    def workers_loading(self) -> int | None:
        """Each daemon process, or each of Apache's children, imports the application as it
        starts when preloading (mod_wsgi's daemon processes take requests meanwhile); without
        preloading, each imports it on its first request, as the user asked."""
        if not self.mode.preload:
            return None
        if isinstance(self.mode, ModWsgiDaemonSettings):
            return self.mode.processes
        return self.children_loading()

    def prepare(self) -> None:
        self.script = self.app.install(self.workdir, self.run_as)
        super().prepare()

    def environment(self) -> dict[str, str]:
        return embedded_python_environment()

    def content(self) -> str:
        script = self.script
        mode = self.mode
        if isinstance(mode, ModWsgiDaemonSettings):
            group = PROCESS_GROUP
            daemon = f"""\
WSGIRestrictEmbedded On
WSGIDaemonProcess {group} processes={mode.processes} threads={mode.threads} \
display-name=%{{GROUP}} listen-backlog={mode.listen_backlog}
WSGIProcessGroup {group}
"""
        else:
            group = "%{GLOBAL}"
            daemon = ""
        preload = (
            f"WSGIImportScript {script} process-group={group} application-group=%{{GLOBAL}}\n"
            if mode.preload
            else ""
        )
        return f"""\
WSGISocketPrefix {self.workdir / "wsgi"}
{daemon}WSGIApplicationGroup %{{GLOBAL}}
WSGIScriptAlias / {script}
{preload}<Directory {self.workdir}>
    Require all granted
</Directory>"""
