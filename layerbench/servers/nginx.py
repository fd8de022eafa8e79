"""nginx serving static files from a generated config: the ladder's top rung and anchor."""

import os
import subprocess
from dataclasses import dataclass
from pathlib import Path

from layerbench.servers.binaries import find_program
from layerbench.servers.managed_server import ManagedServer

APT_PACKAGE = "nginx"
TEMP_DIRS = ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
# Started as root, nginx's workers need a user to drop to; they only read the docroot.
UNPRIVILEGED_USER = "nobody nogroup"


@dataclass(frozen=True)
class TlsListener:
    """A second listener speaking HTTPS with this certificate and key (PEM files)."""

    port: int
    certificate: Path
    key: Path


class NginxStatic(ManagedServer):
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
    ) -> None:
        super().__init__(workdir, port, cpus)
        self.binary = find_program("nginx", APT_PACKAGE)
        self.files = files
        self.workers = workers
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

    @property
    def config_path(self) -> Path:
        return self.workdir / "nginx.conf"

    def version(self) -> str:
        return nginx_version(self.binary)

    def prepare(self) -> None:
        self.docroot.mkdir(parents=True, exist_ok=True)
        for name, content in self.files.items():
            (self.docroot / name).write_bytes(content)
            (self.docroot / name).chmod(0o644)
        for directory in (self.workdir, self.docroot):
            directory.chmod(0o755)
        make_temp_dirs(self.workdir)
        self.config_path.write_text(render_config(self, run_as_root=os.geteuid() == 0))

    def command(self) -> list[str]:
        return nginx_command(self.binary, self.workdir, self.config_path)


def render_config(server: NginxStatic, run_as_root: bool) -> str:
    tls = server.tls
    tls_lines = (
        f"""
        listen {server.host}:{tls.port} ssl;
        ssl_certificate {tls.certificate};
        ssl_certificate_key {tls.key};
        ssl_protocols TLSv1.2 TLSv1.3;
        ssl_session_cache shared:layerbench:10m;"""
        if tls
        else ""
    )
    server_block = f"""
    server {{
        listen {server.host}:{server.port};{tls_lines}
        root {server.docroot};
        location / {{
        }}
    }}"""
    return render_main(server.workdir, server.workers, run_as_root, server_block)


def render_main(workdir: Path, workers: int, run_as_root: bool, http_body: str) -> str:
    """nginx.conf around ``http_body`` (server blocks): in the foreground, logs on stderr, its
    pid and temporary files in ``workdir``, workers unprivileged when started as root."""
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


def make_temp_dirs(workdir: Path) -> None:
    for name in TEMP_DIRS:
        (workdir / "temp" / name).mkdir(parents=True, exist_ok=True)


def nginx_version(binary: Path) -> str:
    completed = subprocess.run([str(binary), "-v"], capture_output=True, text=True, check=False)
    return completed.stderr.strip().removeprefix("nginx version: ")


def nginx_command(binary: Path, workdir: Path, config: Path) -> list[str]:
    return [str(binary), "-p", str(workdir), "-c", str(config), "-e", "stderr"]
