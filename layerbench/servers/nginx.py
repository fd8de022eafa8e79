"""nginx serving static files from a generated config: the ladder's top rung and anchor."""

import os
import subprocess
from dataclasses import dataclass
from pathlib import Path

from layerbench.errors import ConfigError
from layerbench.proc.binaries import find_program
from layerbench.proc.ports import LOOPBACK
from layerbench.servers.managed_server import ManagedServer
from layerbench.servers.server_settings import Processes

APT_PACKAGE = "nginx"
TEMP_DIRS = ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
# Started as root, nginx's workers need a user to drop to; they only read the docroot.
UNPRIVILEGED_USER = "nobody nogroup"


@dataclass(frozen=True)
class NginxSettings:
    workers: Processes = 1

    def __post_init__(self) -> None:
        if self.workers < 1:
            raise ConfigError("nginx needs at least one worker")


@dataclass(frozen=True)
class TlsListener:
    """A second listener speaking HTTPS with this certificate and key (PEM files)."""

    port: int
    certificate: Path
    key: Path


class NginxServer(ManagedServer):
    """What every nginx layerbench runs shares: Debian's binary, in the foreground, with its
    configuration, pid and temporary files in its work directory (traversable by its
    unprivileged workers)."""

    def __init__(
        self,
        workdir: Path,
        port: int,
        cpus: frozenset[int] | None,
        *,
        workers: int,
        host: str = LOOPBACK,
    ) -> None:
        super().__init__(workdir, port, cpus, host=host)
        self.binary = find_program("nginx", APT_PACKAGE)
        self.workers = workers

    @property
    def config_path(self) -> Path:
        return self.workdir / "nginx.conf"

    def version(self) -> str:
        completed = subprocess.run(
            [str(self.binary), "-v"], capture_output=True, text=True, check=False
        )
        return completed.stderr.strip().removeprefix("nginx version: ")

    def write_config(self, http_body: str) -> None:
        """nginx.conf around ``http_body`` (its server blocks)."""
        self.workdir.chmod(0o755)
        for name in TEMP_DIRS:
            (self.workdir / "temp" / name).mkdir(parents=True, exist_ok=True)
        run_as_root = os.geteuid() == 0
        self.config_path.write_text(render_main(self.workdir, self.workers, run_as_root, http_body))

    def command(self) -> list[str]:
        return [
            str(self.binary),
            "-p",
            str(self.workdir),
            "-c",
            str(self.config_path),
            "-e",
            "stderr",
        ]


class NginxStatic(NginxServer):
    name = "nginx"

    def __init__(
        self,
        workdir: Path,
        port: int,
        files: dict[str, bytes],
        *,
        workers: int = 1,
        cpus: frozenset[int] | None = None,
        tls: TlsListener | None = None,
        host: str = LOOPBACK,
    ) -> None:
        super().__init__(workdir, port, cpus, workers=workers, host=host)
        self.files = files
        self.tls = tls
        self.ready_path = "/" + next(iter(files))

    @property
    def tls_base_url(self) -> str:
        if self.tls is None:
            raise ValueError("this nginx has no TLS listener")
        return f"https://{self.host}:{self.tls.port}"

    @property
    def docroot(self) -> Path:
        return self.workdir / "htdocs"

    def prepare(self) -> None:
        self.docroot.mkdir(parents=True, exist_ok=True)
        for name, content in self.files.items():
            (self.docroot / name).write_bytes(content)
            (self.docroot / name).chmod(0o644)
        self.docroot.chmod(0o755)
        self.write_config(self.server_block())

    def server_block(self) -> str:
        tls = self.tls
        tls_lines = (
            f"""
        listen {self.host}:{tls.port} ssl;
        ssl_certificate {tls.certificate};
        ssl_certificate_key {tls.key};
        ssl_protocols TLSv1.2 TLSv1.3;
        ssl_session_cache shared:layerbench:10m;"""
            if tls
            else ""
        )
        return f"""
    server {{
        listen {self.host}:{self.port};{tls_lines}
        root {self.docroot};
        location / {{
        }}
    }}"""


def render_main(workdir: Path, workers: int, run_as_root: bool, http_body: str) -> str:
    """nginx.conf around ``http_body``: in the foreground, logs on stderr, its pid and
    temporary files in ``workdir``, workers unprivileged when started as root."""
    user_line = f"user {UNPRIVILEGED_USER};" if run_as_root else ""
    temp_paths = "\n".join(f"    {name}_temp_path {workdir / 'temp' / name};" for name in TEMP_DIRS)
    return f"""\
daemon off;
master_process on;
worker_processes {workers};
pid {workdir / "nginx.pid"};
error_log stderr warn;
{user_line}

events {{
    worker_connections 16384;
}}

http {{
    access_log off;
{temp_paths}
    types {{
        text/plain txt;
        text/html html;
        application/json json;
    }}
    default_type application/octet-stream;
    sendfile on;
    tcp_nopush on;
    keepalive_timeout 65;
    keepalive_requests 100000000;
{http_body}
}}
"""
