"""The static rung's server: Apache's own static file when the server under test is Apache
(mod_wsgi, mod_python: its MPM and limits the same), as in every seed; nginx's otherwise. Which
one is told by building the server under test in a throwaway directory (building starts
nothing) and asking whether it is an Apache."""

from pathlib import Path

from layerbench.errors import MissingPackageError
from layerbench.proc.ports import LOOPBACK
from layerbench.proc.work_dirs import work_directory
from layerbench.rungs.definitions import STATIC_BODY, STATIC_FILE
from layerbench.servers.adapters import ServerPlan, find_adapter
from layerbench.servers.apache import ApacheServer
from layerbench.servers.deployment import Deployment
from layerbench.servers.nginx import NginxStatic
from layerbench.servers.server_settings import SettingsBook

NGINX = "nginx"
APACHE_STATIC = "apache-static"
FILES = {STATIC_FILE: STATIC_BODY}


def static_server_name(server: str, book: SettingsBook) -> str:
    """``apache-static`` when ``server`` is an Apache, else ``nginx`` (and when ``server`` is
    not installed: its rungs are skipped, the static rung is nginx's)."""
    with work_directory("layerbench-check-") as scratch:
        plan = ServerPlan(Path(scratch) / "server", 0, Path(scratch) / "app.sqlite3", {}, book)
        try:
            deployment = find_adapter(server).build(plan)
        except MissingPackageError:
            return NGINX
    return APACHE_STATIC if isinstance(deployment, ApacheServer) else NGINX


def static_deployment(
    name: str,
    workdir: Path,
    port: int,
    book: SettingsBook,
    cpus: frozenset[int] | None,
    *,
    host: str = LOOPBACK,
) -> Deployment:
    """The static rung's server, ``name`` as :func:`static_server_name` said, listening on
    ``host``; Apache's with the ``apache`` settings of the server under test."""
    if name == APACHE_STATIC:
        plan = ServerPlan(workdir, port, workdir / "unused.sqlite3", FILES, book, cpus, host)
        return find_adapter(APACHE_STATIC).build(plan)
    return NginxStatic(workdir, port, FILES, cpus=cpus, host=host)
