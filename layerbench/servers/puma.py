"""Rails under puma (Debian's, 5.6): W worker processes forked from a master (none: the master
serves), each with T threads; the application loaded once in the master before the fork
(``preload``). Rails' static file server answers ``public/``, where ``caches_page`` writes the
built pages, so a cached page is served by Ruby's middleware, not by the application."""

import subprocess
from dataclasses import dataclass
from pathlib import Path

from layerbench.errors import ConfigError
from layerbench.proc.binaries import find_program
from layerbench.proc.ports import LOOPBACK
from layerbench.servers.managed_server import ManagedServer
from layerbench.servers.rails_app import RailsApp, rails_version, require_rails
from layerbench.servers.server_settings import Processes, Threads

APT_PACKAGE = "puma"
# Each worker boots Rails (seconds) on the server's CPUs.
RAILS_START_S = 30.0
WORKER_START_S = 5.0


def workers_booted(log_path: Path, master: int) -> int:
    """How many workers ``master`` has logged as booted ("[PID] - Worker 1 (PID: 9) booted in
    0.01s, phase: 0"): the log is appended to, so lines of another master are not counted."""
    prefix = f"[{master}] - Worker "
    with open(log_path, errors="replace") as log:
        return len(
            {line.split()[3] for line in log if line.startswith(prefix) and " booted " in line}
        )


@dataclass(frozen=True)
class PumaSettings:
    workers: Processes = 2
    threads: Threads = 5
    preload: bool = True

    def __post_init__(self) -> None:
        if self.workers < 0 or self.threads < 1:
            raise ConfigError(
                "puma needs 0 (the master serves) or more workers of 1 thread or more"
            )


class PumaServer(ManagedServer):
    name = "puma"

    def __init__(
        self,
        workdir: Path,
        port: int,
        app: RailsApp,
        settings: PumaSettings,
        cpus: frozenset[int] | None = None,
        *,
        host: str = LOOPBACK,
    ) -> None:
        super().__init__(workdir, port, cpus, host=host)
        self.start_timeout_s = RAILS_START_S + WORKER_START_S * settings.workers
        self.binary = find_program("puma", APT_PACKAGE)
        require_rails()
        self.app = app
        self.settings = settings
        self.ready_path = app.ready_path
        self.app_root = workdir / "rails_site"

    def version(self) -> str:
        completed = subprocess.run(
            [str(self.binary), "--version"], capture_output=True, text=True, check=False
        )
        return completed.stdout.strip().removeprefix("puma version ")

    def versions(self) -> dict[str, str]:
        return {self.name: self.version(), "rails": rails_version()}

    def prepare(self) -> None:
        self.app_root = self.app.install(self.workdir, None)

    def probe(self) -> str | None:
        """An answer, and then every worker booted: a worker that boots late (seconds on a
        loaded machine) would leave the first cell's connections to the others."""
        reason = super().probe()
        if reason is not None or self.settings.workers == 0:
            return reason
        booted = workers_booted(self.log_path, self.pid)
        if booted >= self.settings.workers:
            return None
        return f"{booted} of {self.settings.workers} puma workers have booted"

    def environment(self) -> dict[str, str]:
        return {
            "PATH": "/usr/local/bin:/usr/bin:/bin",
            "HOME": str(self.workdir),
            "TMPDIR": str(self.workdir),
            **self.app.environment(),
        }

    def command(self) -> list[str]:
        host = f"[{self.host}]" if ":" in self.host else self.host
        threads = self.settings.threads
        return [
            str(self.binary),
            "--dir",
            str(self.app_root),
            "--bind",
            f"tcp://{host}:{self.port}",
            "--workers",
            str(self.settings.workers),
            "--threads",
            f"{threads}:{threads}",
            "--environment",
            "production",
            *(["--preload"] if self.settings.preload and self.settings.workers else []),
            "--pidfile",
            str(self.workdir / "puma.pid"),
            str(self.app_root / "config.ru"),
        ]
