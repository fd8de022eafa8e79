"""The throwaway services' settings, given like a server's (``--set couchdb.server=apache``,
``--set mariadb.profile=seed003``, ``--set galera.wsrep_sync_wait=1``): a section per service
kind that has any, read into the keyword arguments of its class. A key it does not have, or a
value not among its choices or out of its range, is a ConfigError naming what is known."""

import dataclasses
from dataclasses import dataclass
from typing import Annotated, Any, Literal

from layerbench.errors import ConfigError
from layerbench.lab.app_storage import settings_types
from layerbench.lab.site_database import SiteSettings
from layerbench.servers.server_settings import Range, SettingsBook, read_section
from layerbench.services.delaying_server import MAX_DELAY_MS
from layerbench.services.galera import APPLIER_THREADS_MAX, SYNC_WAIT_MAX, check_wsrep_settings
from layerbench.services.upstream import DEFAULT_DELAY_MS


@dataclass(frozen=True)
class CouchdbSettings:
    # pouchdb-server from node/ (the default), or Apache CouchDB where it is installed.
    server: Literal["pouchdb", "apache"] = "pouchdb"


# InnoDB's settings: the service's defaults, or seed 003's my.cnf (services/mariadb.py).
InnodbProfile = Literal["default", "seed003"]


@dataclass(frozen=True)
class MariadbSettings:
    profile: InnodbProfile = "default"


@dataclass(frozen=True)
class GaleraSettings:
    # Every node's InnoDB, as mariadb.profile.
    profile: InnodbProfile = "default"
    # Which statements wait until the node has applied every write the cluster had committed
    # (causal reads): a bit mask, 1 reads, 2 updates and deletes, 4 inserts, 8 SHOW; 0 none,
    # Galera's default.
    wsrep_sync_wait: Annotated[int, Range(0, SYNC_WAIT_MAX)] = 0
    # The threads that apply other nodes' writes on each node (1, Galera's default).
    wsrep_slave_threads: Annotated[int, Range(1, APPLIER_THREADS_MAX)] = 1

    def __post_init__(self) -> None:
        check_wsrep_settings(self.wsrep_sync_wait, self.wsrep_slave_threads)


@dataclass(frozen=True)
class UpstreamSettings:
    # How long the upstream rung's delaying server waits before it answers, in milliseconds.
    ms: Annotated[int, Range(0, MAX_DELAY_MS, "milliseconds")] = DEFAULT_DELAY_MS

    def __post_init__(self) -> None:
        if not 0 <= self.ms <= MAX_DELAY_MS:
            raise ConfigError(f"upstream.ms is 0 to {MAX_DELAY_MS:,} milliseconds, not {self.ms}")


SERVICE_SETTINGS: dict[str, type[Any]] = {
    "couchdb": CouchdbSettings,
    "mariadb": MariadbSettings,
    "galera": GaleraSettings,
    "upstream": UpstreamSettings,
    # Not a service: the demo site's database, which may be one (site_database.py).
    "site": SiteSettings,
    # Not services: each application's choice of storage, which may need one (app_storage.py).
    **settings_types(),
}


def service_arguments(book: SettingsBook, kind: str) -> dict[str, Any]:  # boundary: **kwargs
    """The keyword arguments of ``kind``'s service class from its section of ``book``
    (nothing for a kind without settings)."""
    settings_type = SERVICE_SETTINGS.get(kind)
    if settings_type is None:
        return {}
    return dataclasses.asdict(read_section(settings_type, book, kind))


def service_sections() -> tuple[str, ...]:
    """The sections the services read: known to every run, which reads them when it starts
    the service (a section nothing reads is refused)."""
    return tuple(SERVICE_SETTINGS)
