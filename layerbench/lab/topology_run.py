"""A ladder or matrix run on a topology: which host each part of the run is placed on.

- the backing services on the hosts with the role ``db`` (PostgreSQL, MariaDB, CouchDB) and
  ``cache`` (memcached, Redis), listening on the host's address, seeded from the app host; the
  upstream rung's delaying server on the app host's loopback (it listens on loopback only);
- the server under test on the ``app`` host, started inside its namespace; on several app
  hosts, one on each behind nginx's balancer (``least_conn``) on the front host;
- the front (nginx before uWSGI, the static rung's server) on the ``front`` host, else with the
  application;
- the load from every ``client`` host at once, merged exactly; the readiness probes of the
  server under test, the verification and the warm-up from inside the first client host (an
  app host's server behind the balancer probed from the front host).

Without a topology every placement is this machine's loopback (:data:`LOCAL`), as before.

Every save of such a run's results has its per-host rows (``per_host``) of what it has
measured; one that did not finish also prints their table (:func:`save_last_with_hosts`).
"""

import sys
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Protocol
from urllib.parse import urlsplit

from layerbench.errors import ConfigError
from layerbench.hosts.lab_network import LabNetwork, lab_network
from layerbench.hosts.placement import LOCAL, Placement, placement_of
from layerbench.hosts.topology import Topology
from layerbench.lab.balanced_servers import BalancedServers
from layerbench.lab.probed_from import probe_from
from layerbench.proc.ports import LOOPBACK, free_port
from layerbench.render.host_table import Items, format_host_table, per_host, with_per_host
from layerbench.servers.deployment import Deployment, FrontedServer
from layerbench.servers.nginx_balancer import NginxBalancer
from layerbench.typed_documents import JsonObject

# The topology role whose host runs each backing service.
UPSTREAM = "upstream"
SERVICE_HOST_ROLE = {
    "postgres": "db",
    "mariadb": "db",
    "couchdb": "db",
    "memcached": "cache",
    "redis": "cache",
    "redis-cluster": "cache",
    UPSTREAM: "app",
}


def host_role(kind: str) -> str:
    """The topology role of the host that runs the backing service ``kind``."""
    return SERVICE_HOST_ROLE.get(kind, "db")


def roles_needed(kinds: tuple[str, ...]) -> tuple[str, ...]:
    """The topology roles a run with the backing services ``kinds`` needs."""
    needed = ["client", "app", *(host_role(kind) for kind in kinds)]
    return tuple(dict.fromkeys(needed))


def check_topology(topology: Topology, kinds: tuple[str, ...]) -> None:
    """One line when the topology lacks a role the run needs, or has SSH hosts (several app
    hosts are balanced: :meth:`Placements.deployment`)."""
    if topology.ssh_hosts:
        names = ", ".join(host.name for host in topology.ssh_hosts)
        raise ConfigError(
            f"the topology has SSH hosts ({names}): ladder, matrix and mix place their servers "
            "on the lab's namespaces, which a machine elsewhere cannot reach (an SSH host is a "
            "client of load from hosts only, for now; see the README's Real hosts over SSH)"
        )
    for role in roles_needed(kinds):
        if not topology.with_role(role):
            raise ConfigError(
                f"the topology has no host with the role {role}, which this run needs"
            )


@dataclass(frozen=True)
class Placements:
    """Where each part of a run runs (see the module's docstring)."""

    app: Placement = LOCAL  # the first app host: the services are seeded from it
    front: Placement = LOCAL
    probe: Placement = LOCAL  # verification and warm-up: a client host
    by_kind: tuple[tuple[str, Placement], ...] = ()
    network: LabNetwork | None = None
    # Every app host (more than one: the server on each, behind the balancer on the front).
    apps: tuple[Placement, ...] = ()

    def service(self, kind: str) -> Placement:
        return dict(self.by_kind).get(kind, LOCAL)

    def deployment(
        self, build: Callable[[Placement, str], Deployment], workdir: Path
    ) -> Deployment:
        """The server under test as ``build`` makes it for an app host (its placement, and a
        name for its own directory: empty with one host); on several app hosts, one on each
        behind nginx's balancer on the front host."""
        if len(self.apps) <= 1:
            return build(self.app, "")
        servers = tuple((where, build(where, where.name)) for where in self.apps)
        upstreams = [urlsplit(server.base_url).netloc for _, server in servers]
        balancer = NginxBalancer(workdir / "balancer", free_port(), upstreams)
        balancer.host = self.front.address
        return BalancedServers(servers, balancer, self.front)

    @contextmanager
    def started(self, deployment: Deployment) -> Iterator[Deployment]:
        """``deployment`` started on the app host (a fronted one's front on the front host,
        listening on its address; nginx still reaches uWSGI over its Unix socket, which a
        network namespace does not separate), its readiness probed from the client host,
        stopped on the way out."""
        self._probed_from_client(deployment)
        with ExitStack() as stack:
            if isinstance(deployment, BalancedServers):  # it places each of its own
                stack.enter_context(deployment)
            elif isinstance(deployment, FrontedServer) and self.front != self.app:
                deployment.front.host = self.front.address
                with self.app.entered():
                    stack.enter_context(deployment.back)
                with self.front.entered():
                    stack.enter_context(deployment.front)
            else:
                with self.app.entered():
                    stack.enter_context(deployment)
            yield deployment

    @contextmanager
    def started_in_front(self, deployment: Deployment) -> Iterator[Deployment]:
        """The static rung's server, started on the front host, probed from the client host."""
        self._probed_from_client(deployment)
        with ExitStack() as stack:
            with self.front.entered():
                stack.enter_context(deployment)
            yield deployment

    def _probed_from_client(self, deployment: Deployment) -> None:
        """On a topology, ``deployment``'s readiness probed from the client host: the way the
        load reaches it (without one, from this machine, as ever)."""
        if self.network is None:
            return
        if isinstance(deployment, BalancedServers):
            deployment.probed_from = self.probe
        else:
            probe_from(deployment, self.probe)


LOCAL_PLACEMENTS = Placements()


def placements_on(network: LabNetwork, kinds: tuple[str, ...]) -> Placements:
    """Every part's host in ``network`` (its topology checked by :func:`check_topology`)."""
    topology = network.topology
    app = placement_of(network, topology.with_role("app")[0])
    fronts = topology.with_role("front")
    front = placement_of(network, fronts[0]) if fronts else app
    probe = placement_of(network, topology.with_role("client")[0])
    apps = tuple(placement_of(network, host) for host in topology.with_role("app"))
    by_kind = tuple(
        (kind, placement_of(network, topology.with_role(host_role(kind))[0])) for kind in kinds
    )
    # The delaying server listens on loopback only: the app host's own.
    by_kind = tuple(
        (kind, replace(where, address=LOOPBACK) if kind == UPSTREAM else where)
        for kind, where in by_kind
    )
    return Placements(app, front, probe, by_kind, network, apps)


@contextmanager
def placed_on(topology: Topology | None, kinds: tuple[str, ...]) -> Iterator[Placements]:
    """Each part's host: on ``topology``'s hosts, made for the run and removed after it however
    it ends (what still runs in them killed); loopback without a topology."""
    if topology is None:
        yield LOCAL_PLACEMENTS
        return
    check_topology(topology, kinds)
    with lab_network(topology) as network:
        yield placements_on(network, kinds)


def topology_record(network: LabNetwork) -> JsonObject:
    """The topology as a result records it: each host's address, roles and namespace."""
    return {
        "subnet": str(network.topology.subnet),
        "hosts": [
            {
                "name": host.name,
                "address": str(host.address),
                "roles": list(host.roles),
                "namespace": network.namespace(host),
            }
            for host in network.topology.hosts
        ],
    }


class SavesDocuments(Protocol):
    """Where a run's document is saved (``lab/publish.py``'s ResultsFile): this module saves
    through it and does not depend on where it goes."""

    def save(self, document: JsonObject) -> None: ...

    def save_last(self, document: JsonObject) -> None: ...


def save_with_hosts(results: SavesDocuments, document: JsonObject, items: Items) -> None:
    """A checkpoint of the run: ``document`` with the per-host rows of its measured ``items``
    (on a topology), saved as a new document: ``document`` is left as it was."""
    results.save(with_per_host(document, per_host(document["conditions"], items)))


def save_last_with_hosts(
    results: SavesDocuments, document: JsonObject, items: Items, *, finished: bool
) -> None:
    """The run's last save, however it ended, with its per-host rows. A run that did not
    finish (interrupted, or stopped by an error) prints their table of what it measured, on
    stderr: the tables a finished run prints after it will not be."""
    rows = per_host(document["conditions"], items)
    if rows and items and not finished:
        print("\n" + format_host_table(rows, [label for label, _ in items]), file=sys.stderr)
        if not document.get("interrupted"):  # save_last says so on a line of its own
            print(file=sys.stderr)
    results.save_last(with_per_host(document, rows))
