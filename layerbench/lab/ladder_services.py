"""The full ladder's backing services: each started throwaway on loopback, seeded with the
rung data, and watched by the sampler in its role (database or cache). A service that is not
installed is recorded with the package to install; its rungs are skipped, the others run."""

from contextlib import ExitStack
from dataclasses import dataclass, field

from layerbench.errors import MissingPackageError
from layerbench.lab.service_settings import service_arguments
from layerbench.lab.topology_run import LOCAL_PLACEMENTS, Placements
from layerbench.proc.start_stop import StartStop
from layerbench.roles import CACHE_ROLE, DATABASE_ROLE, UPSTREAM_ROLE
from layerbench.rungs.seeding import SEEDERS
from layerbench.servers.server_settings import SettingsBook
from layerbench.services.registry import service_class
from layerbench.site_contract import ServiceUrls

ROLE_OF = {
    "mariadb": DATABASE_ROLE,
    "postgres": DATABASE_ROLE,
    "couchdb": DATABASE_ROLE,
    "upstream": UPSTREAM_ROLE,
}


def role_of(kind: str) -> str:
    return ROLE_OF.get(kind, CACHE_ROLE)


@dataclass
class LadderServices(StartStop):
    """Use as a context manager: every service in ``kinds`` runs inside it."""

    kinds: tuple[str, ...]
    cpus: frozenset[int] | None = None
    # The run's --set book: a service's own section (couchdb.server, mariadb.profile).
    book: SettingsBook = field(default_factory=dict)
    # Each service's host (on a topology; loopback without).
    placements: Placements = LOCAL_PLACEMENTS
    urls: dict[str, str] = field(default_factory=dict, init=False)
    # Why a service is not there (its package to install), by kind.
    missing: dict[str, str] = field(default_factory=dict, init=False)
    sessions: dict[str, set[int]] = field(default_factory=dict, init=False)
    _stack: ExitStack = field(default_factory=ExitStack, init=False)

    def start(self) -> "LadderServices":
        # Every service's settings are checked before any starts.
        services = [
            service_class(kind)(cpus=self.cpus, **service_arguments(self.book, kind))
            for kind in self.kinds
        ]
        try:
            for kind, service in zip(self.kinds, services, strict=True):
                placement = self.placements.service(kind)
                service.host = placement.address
                try:
                    with placement.entered():
                        self._stack.enter_context(service)
                except MissingPackageError as error:
                    self.missing[kind] = str(error)
                    continue
                with self.placements.app.entered():  # the host that reads them
                    SEEDERS[kind](service.url)
                self.urls[kind] = service.url
                self.sessions.setdefault(role_of(kind), set()).add(service.pid)
        except BaseException:
            self._stack.close()
            raise
        return self

    def stop(self) -> None:
        self._stack.close()

    def service_urls(self) -> ServiceUrls:
        return ServiceUrls(**self.urls)

    def why_not(self, needs: tuple[str, ...]) -> str | None:
        """Why a rung needing ``needs`` cannot run, or None when it can."""
        reasons = [self.missing[kind] for kind in needs if kind in self.missing]
        return "; ".join(reasons) if reasons else None
