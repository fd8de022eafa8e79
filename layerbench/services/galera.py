"""A throwaway MariaDB Galera cluster: three MariaDB nodes replicating each other synchronously
through Debian's ``galera-4`` provider, all on loopback or each on a host of the lab's network
(``placements``: node N is started inside its placement's namespace, every port of it on the
placement's address).

    node 1  mariadb-install-db, then started with ``--wsrep-new-cluster`` (it makes the
            cluster); the database and root's TCP account are created on it and replicate
    node 2, node 3   started on empty data directories: each joins, receives the whole data
            directory from a synced node by state transfer (``wsrep_sst_method=rsync``), and
            is waited for until it is Synced
    ready   every node answers, sees a cluster of 3, and is Synced

What a machine like this one taught (issue 26): the servers run as ``mysql``, not as
``nobody`` (rsync's daemon, started by the state transfer, would otherwise try to drop to
``nobody`` and fail), and every port a node uses (client, group communication, incremental
and full state transfer) is below the ephemeral range (:func:`~layerbench.proc.ports.
free_low_ports`): a connection in TIME-WAIT on a port in that range kept a node from binding.

Its URLs are the three nodes' ``mysql://`` URLs in node order (``urls``); ``url`` is node 1's.
root reaches each from any address (:mod:`~layerbench.services.mariadb`), so app hosts do.
Stopped, the joiners go first, then node 1, each with its process group, then the directory
(:class:`~layerbench.services.service.ManagedService`'s multi-node lifecycle).
"""

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Self

from layerbench.errors import (
    ConfigError,
    LayerbenchError,
    MissingBinaryError,
    ServerStartError,
)
from layerbench.proc.binaries import find_program
from layerbench.proc.ports import free_low_ports
from layerbench.services.mariadb import (
    SOCKET,
    MariadbService,
    connect_mariadb,
    mariadb_url,
    probe_socket,
)
from layerbench.services.placed_nodes import PlacedNodes, Placement
from layerbench.services.service import PROBE_INTERVAL_S

PROVIDER = Path("/usr/lib/galera/libgalera_smm.so")
# wsrep_sync_wait is a bit mask of the statements that wait for causality (1 reads, 2 updates
# and deletes, 4 inserts and replaces, 8 SHOW); wsrep_slave_threads at most MariaDB's 512.
SYNC_WAIT_MAX = 15
APPLIER_THREADS_MAX = 512
PROVIDER_PACKAGE = "galera-4"
NODES = 3
CLUSTER_NAME = "layerbench"
# Which Debian package brings each program the cluster runs.
PROGRAM_PACKAGES = {
    "mariadb-install-db": "mariadb-server",
    "mariadbd": "mariadb-server",
    "wsrep_sst_rsync": "mariadb-server",
    "rsync": "rsync",
}


@dataclass(frozen=True)
class NodePorts:
    """A node's ports on its address: its clients', group communication's, and the
    incremental and full state transfers' it receives on."""

    mysql: int
    group: int
    ist: int
    sst: int


class GaleraService(PlacedNodes, MariadbService):
    name = "galera"
    apt_package = PROVIDER_PACKAGE
    account = "mysql"

    def __init__(
        self,
        *,
        placements: Sequence[Placement] | None = None,
        wsrep_sync_wait: int = 0,
        wsrep_slave_threads: int = 1,
        **arguments: object,
    ) -> None:
        check_wsrep_settings(wsrep_sync_wait, wsrep_slave_threads)
        super().__init__(**arguments)  # type: ignore[arg-type]
        self.place(placements, NODES)
        self.wsrep_sync_wait = wsrep_sync_wait
        self.wsrep_slave_threads = wsrep_slave_threads
        self.nodes: list[NodePorts] = []

    def programs(self) -> dict[str, str]:
        return {**super().programs(), "wsrep_sst_rsync": "wsrep_sst_rsync", "rsync": "rsync"}

    def find(self, program: str) -> Path:
        location = self.programs()[program]
        if Path(location).is_file():
            return Path(location)
        return find_program(Path(location).name, PROGRAM_PACKAGES[program])

    def start(self) -> Self:
        if not PROVIDER.is_file():
            raise MissingBinaryError(str(PROVIDER), PROVIDER_PACKAGE)
        return super().start()

    # Ports: node 1's client port is the service's port; the others are chosen with it (free
    # on this host's loopback; a lab host's namespace holds nothing else).

    def choose_port(self) -> int:
        ports = free_low_ports(4 * NODES)
        self.nodes = [NodePorts(*ports[4 * n : 4 * n + 4]) for n in range(NODES)]
        return self.nodes[0].mysql

    def prepare(self, directory: Path) -> None:
        super().prepare(directory)
        for number in range(2, NODES + 1):
            data = self.node_directory(number) / "data"
            data.mkdir(parents=True)
            if self.run_as is not None:
                self.run_as.give(data.parent)
                self.run_as.give(data)

    def command(self, directory: Path, port: int) -> list[str]:
        return [*self.node_command(1), "--wsrep-new-cluster"]

    def node_command(self, number: int) -> list[str]:
        ports, address = self.nodes[number - 1], self.address(number)
        group_members = ",".join(
            f"{self.address(n)}:{node.group}" for n, node in enumerate(self.nodes, 1)
        )
        provider_options = ";".join(
            (
                f"gmcast.listen_addr=tcp://{address}:{ports.group}",
                f"ist.recv_addr={address}:{ports.ist}",
                "gcache.size=32M",
            )
        )
        return [
            *self.server_command(self.node_directory(number), ports.mysql, address),
            "--wsrep-on=ON",
            f"--wsrep-provider={PROVIDER}",
            f"--wsrep-cluster-name={CLUSTER_NAME}",
            f"--wsrep-cluster-address=gcomm://{group_members}",
            f"--wsrep-node-name=node{number}",
            f"--wsrep-node-address={address}:{ports.group}",
            f"--wsrep-provider-options={provider_options}",
            "--wsrep-sst-method=rsync",
            f"--wsrep-sync-wait={self.wsrep_sync_wait}",
            f"--wsrep-slave-threads={self.wsrep_slave_threads}",
            f"--wsrep-sst-receive-address={address}:{ports.sst}",
            # What Galera asks of the server: row events, interleaved auto-increment locks.
            "--binlog-format=ROW",
            "--innodb-autoinc-lock-mode=2",
            "--default-storage-engine=InnoDB",
        ]

    @property
    def urls(self) -> tuple[str, ...]:
        if not self.started:
            raise RuntimeError(f"{self.name} was not started")
        return tuple(
            mariadb_url(self.address(number), node.mysql)
            for number, node in enumerate(self.nodes, 1)
        )

    def after_ready(self, url: str) -> None:
        super().after_ready(url)
        for number in range(2, NODES + 1):
            with self.on_node(number):
                self._start_joiner(number)
        for node_url in self.urls:
            reason = cluster_state(node_url)
            if reason is not None:
                raise ServerStartError(self.name, reason)

    def _start_joiner(self, number: int) -> None:
        """Node ``number`` joined by state transfer, waited for until it is Synced (probed
        from its own host)."""
        socket = self.node_directory(number) / SOCKET
        node_url = self.urls[number - 1]

        def synced() -> str | None:
            try:
                probe_socket(socket)
            except LayerbenchError as error:
                return str(error)
            return node_state(node_url)

        self.start_node(number, self.node_command(number), synced, interval_s=PROBE_INTERVAL_S * 10)


def check_wsrep_settings(sync_wait: int, slave_threads: int) -> None:
    """Raise a ConfigError of one line for a value the servers would refuse or clamp."""
    if not 0 <= sync_wait <= SYNC_WAIT_MAX:
        raise ConfigError(
            f"galera.wsrep_sync_wait is 0 to {SYNC_WAIT_MAX} (a bit mask: 1 reads, 2 updates and"
            f" deletes, 4 inserts, 8 SHOW), not {sync_wait}"
        )
    if not 1 <= slave_threads <= APPLIER_THREADS_MAX:
        raise ConfigError(
            f"galera.wsrep_slave_threads is 1 to {APPLIER_THREADS_MAX}, not {slave_threads}"
        )


def wsrep_status(url: str) -> dict[str, str]:
    """A node's ``wsrep_%`` status variables."""
    connection = connect_mariadb(url)
    with connection, connection.cursor() as cursor:
        cursor.execute("SHOW GLOBAL STATUS LIKE 'wsrep_%'")
        return {str(name): str(value) for name, value in cursor.fetchall()}


def node_state(url: str) -> str | None:
    """None when the node at ``url`` is Synced in a primary component; otherwise its state."""
    import pymysql  # the databases extra's, imported where used

    try:
        status = wsrep_status(url)
    except pymysql.MySQLError as error:
        return f"{url} does not answer: {error}"
    state = status.get("wsrep_local_state_comment", "?")
    component = status.get("wsrep_cluster_status", "?")
    if state != "Synced" or component != "Primary":
        return f"{url} is {state} in a {component} component"
    return None


def cluster_state(url: str, size: int = NODES) -> str | None:
    """None when the node at ``url`` is Synced and sees a cluster of ``size``; otherwise why
    not."""
    reason = node_state(url)
    if reason is not None:
        return reason
    seen = wsrep_status(url).get("wsrep_cluster_size", "?")
    return None if seen == str(size) else f"{url} sees a cluster of {seen}, not {size}"


def probe_galera(url: str) -> None:
    """Raise when the node at ``url`` is not Synced in a primary component."""
    reason = node_state(url)
    if reason is not None:
        raise LayerbenchError(f"Galera node: {reason}")
