"""Apache httpd from Debian's package, configured from scratch in a work directory: one MPM
(event, worker or prefork) with its limits as settings, the modules an adapter asks for, and
nothing from /etc/apache2. Started as root, it binds its port and runs its children as an
unprivileged account (its own ``User``/``Group``); started by anyone else, as that user.

Adapters (static files, mod_wsgi, mod_python) subclass :class:`ApacheServer` and give the
modules they load and the configuration that serves their content.
"""

import math
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Literal

from layerbench.errors import ConfigError, MissingBinaryError
from layerbench.proc.binaries import find_program
from layerbench.proc.ports import LOOPBACK
from layerbench.proc.run_as import RunAs, unprivileged_account
from layerbench.proc.sessions import members
from layerbench.servers.managed_server import LISTEN_BACKLOG, ManagedServer
from layerbench.servers.server_settings import (
    MAX_CONNECTIONS,
    Backlog,
    Connections,
    Processes,
    Range,
    Seconds,
    Threads,
)

APT_PACKAGE = "apache2"
MODULES_DIR = Path("/usr/lib/apache2/modules")
# Modules every configuration needs: access control (Require) and content types.
BASE_MODULES = (("authz_core_module", "mod_authz_core.so"), ("mime_module", "mod_mime.so"))
Mpm = Literal["event", "worker", "prefork"]


@dataclass(frozen=True)
class ApacheSettings:
    """The MPM and its limits (Apache's own names in snake case; Apache's defaults)."""

    mpm: Mpm = "event"
    start_servers: Processes = 2
    max_request_workers: Annotated[int, Range(1, MAX_CONNECTIONS)] = 150
    # Threaded MPMs (event, worker): threads per child process and idle threads kept.
    threads_per_child: Threads = 25
    min_spare_threads: Connections = 25
    max_spare_threads: Connections = 75
    # prefork: idle processes kept.
    min_spare_servers: Processes = 5
    max_spare_servers: Processes = 10
    max_connections_per_child: Annotated[int, Range(0, 1_000_000_000)] = 0
    keep_alive: bool = True
    keep_alive_timeout: Seconds = 5
    listen_backlog: Backlog = LISTEN_BACKLOG

    def __post_init__(self) -> None:
        if min(self.start_servers, self.max_request_workers, self.threads_per_child) < 1:
            raise ConfigError(
                "apache's start_servers, max_request_workers and threads_per_child must be "
                "at least 1"
            )

    def server_limit(self) -> int:
        """The processes the limits need (Apache would otherwise lower MaxRequestWorkers)."""
        if self.mpm == "prefork":
            return max(256, self.max_request_workers)
        return max(16, math.ceil(self.max_request_workers / self.threads_per_child))

    def children_at_start(self) -> int:
        """The children Apache keeps once settled after its start, no request in flight:
        StartServers, raised to keep its minimum of spare processes (threads) idle, lowered to
        its maximum, at most the request limit. Apache forks the missing ones in its first
        seconds: prefork's StartServers 2 became 5 (MinSpareServers), each child importing
        the application while the first cell ran."""
        if self.mpm == "prefork":
            least = self.min_spare_servers
            most = max(self.max_spare_servers, self.min_spare_servers + 1)
            limit = self.max_request_workers
        else:
            least = math.ceil(self.min_spare_threads / self.threads_per_child)
            # Apache raises MaxSpareThreads to at least MinSpareThreads + ThreadsPerChild.
            spare = max(self.max_spare_threads, self.min_spare_threads + self.threads_per_child)
            most = spare // self.threads_per_child
            limit = math.ceil(self.max_request_workers / self.threads_per_child)
        return max(1, min(max(self.start_servers, least), most, limit))

    def mpm_directives(self) -> str:
        common = f"""\
StartServers {self.start_servers}
ServerLimit {self.server_limit()}
MaxRequestWorkers {self.max_request_workers}
MaxConnectionsPerChild {self.max_connections_per_child}"""
        if self.mpm == "prefork":
            return f"""{common}
MinSpareServers {self.min_spare_servers}
MaxSpareServers {self.max_spare_servers}"""
        return f"""{common}
ThreadLimit {self.threads_per_child}
ThreadsPerChild {self.threads_per_child}
MinSpareThreads {self.min_spare_threads}
MaxSpareThreads {self.max_spare_threads}"""


class ApacheServer(ManagedServer):
    """Apache in the foreground (``-DFOREGROUND``) on a generated ``httpd.conf``."""

    # (module name, file in MODULES_DIR) an adapter adds to BASE_MODULES.
    modules: tuple[tuple[str, str], ...] = ()
    # The Debian package that has them.
    module_package = APT_PACKAGE

    def __init__(
        self,
        workdir: Path,
        port: int,
        settings: ApacheSettings,
        cpus: frozenset[int] | None = None,
        *,
        host: str = LOOPBACK,
    ) -> None:
        super().__init__(workdir, port, cpus, host=host)
        self.binary = find_program("apache2", APT_PACKAGE)
        self.settings = settings
        self.run_as: RunAs | None = unprivileged_account()
        for _, filename in self.modules:
            if not (MODULES_DIR / filename).exists():
                raise MissingBinaryError(str(MODULES_DIR / filename), self.module_package)

    def children_loading(self) -> int:
        """The children that must have loaded the application before the server is ready: those
        it keeps from its start, or every child it runs when it has forked more. A child still
        importing is not idle to Apache, which forks more meanwhile (one, two, four… a second):
        on a loaded machine prefork's 5 became 9."""
        running = len(members({self.session})) - 1 if self.started else 0
        return max(self.settings.children_at_start(), running)

    @property
    def config_path(self) -> Path:
        return self.workdir / "httpd.conf"

    def version(self) -> str:
        completed = subprocess.run(
            [str(self.binary), "-v"], capture_output=True, text=True, check=False
        )
        first = completed.stdout.splitlines()[0] if completed.stdout else ""
        return first.removeprefix("Server version: ").strip()

    def versions(self) -> dict[str, str]:
        versions = {"apache": self.version()}
        if self.module_package != APT_PACKAGE:
            versions[self.module_package] = package_version(self.module_package)
        return versions

    def content(self) -> str:
        """The directives that serve this adapter's content."""
        raise NotImplementedError

    def prepare(self) -> None:
        self.workdir.chmod(0o755)  # its unprivileged children read below it
        self.config_path.write_text(self.render())

    def render(self) -> str:
        settings = self.settings
        modules = "\n".join(
            f"LoadModule {name} {MODULES_DIR / filename}"
            for name, filename in (
                (f"mpm_{settings.mpm}_module", f"mod_mpm_{settings.mpm}.so"),
                *BASE_MODULES,
                *self.modules,
            )
        )
        user = (
            f"User {self.run_as.name}\nGroup #{self.run_as.gid}\n"
            if self.run_as is not None
            else ""
        )
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"""\
# Generated by layerbench for one run; nothing from /etc/apache2 is used.
ServerRoot {self.workdir}
ServerName {host}
Listen {host}:{self.port}
ListenBacklog {settings.listen_backlog}
PidFile {self.workdir / "httpd.pid"}
DefaultRuntimeDir {self.workdir}
Mutex file:{self.workdir} default
ErrorLog /dev/stderr
LogLevel warn
{user}{modules}
{settings.mpm_directives()}
KeepAlive {"On" if settings.keep_alive else "Off"}
KeepAliveTimeout {settings.keep_alive_timeout}
MaxKeepAliveRequests 0
Timeout 60
TypesConfig /dev/null
AddType text/plain .txt
AddType text/html .html
<Directory />
    AllowOverride None
    Require all denied
</Directory>
{self.content()}
"""

    def command(self) -> list[str]:
        return [str(self.binary), "-DFOREGROUND", "-f", str(self.config_path)]


class ApacheStatic(ApacheServer):
    """Apache serving files from a docroot: the static rung under Apache (seed 002)."""

    name = "apache-static"

    def __init__(
        self,
        workdir: Path,
        port: int,
        files: dict[str, bytes],
        settings: ApacheSettings,
        cpus: frozenset[int] | None = None,
        *,
        host: str = LOOPBACK,
    ) -> None:
        super().__init__(workdir, port, settings, cpus, host=host)
        self.files = files
        self.ready_path = "/" + next(iter(files))

    @property
    def docroot(self) -> Path:
        return self.workdir / "htdocs"

    def prepare(self) -> None:
        self.docroot.mkdir(parents=True, exist_ok=True)
        self.docroot.chmod(0o755)
        for name, body in self.files.items():
            (self.docroot / name).write_bytes(body)
            (self.docroot / name).chmod(0o644)
        super().prepare()

    def content(self) -> str:
        return f"""\
DocumentRoot {self.docroot}
<Directory {self.docroot}>
    Require all granted
    Options None
</Directory>"""


def package_version(package: str) -> str:
    """The installed version of a Debian package (a module has no version of its own to ask)."""
    completed = subprocess.run(
        ["dpkg-query", "-W", "-f", "${Version}", package],
        capture_output=True,
        text=True,
        check=False,
    )
    return completed.stdout.strip() or "unknown"
