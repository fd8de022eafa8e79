"""``layerbench cluster``'s options and its plan: which host of the topology plays which part.

    client   the first host with the role client: the writers and the readers run there
    front    the first host with the role front: nginx balancing the application hosts
    app      every host with the role app (at least 2): the site, app host i on Galera node i
    db       every host with the role db: Galera's three nodes, node i on db host i mod N
    cache    every host with the role cache: the shared page cache, a memcached pool of a node
             a host (the site's client hashes each key to one node); needed when the shared
             cache is measured

Every host is a namespace of the lab: an SSH host is refused. Every mistake is a
:class:`~layerbench.errors.ConfigError` of one line (exit 2).
"""

from dataclasses import dataclass
from pathlib import Path

from layerbench.errors import ConfigError
from layerbench.hosts.topology import Host, Topology

SHARED = "shared"  # the page cache in the memcached pool on the cache hosts, one for all
LOCAL = "local"  # each app host's page cache in its own process
CACHES = (SHARED, LOCAL)
MIN_APP_HOSTS = 2


@dataclass(frozen=True)
class ClusterOptions:
    writers: tuple[int, ...] = (1, 3, 6)
    writes_each: int = 30
    # Every edit_every-th write of a writer edits the one shared video (the conflicts' source).
    edit_every: int = 4
    # How long the read-your-write rounds of each site condition last.
    duration_s: float = 10.0
    caches: tuple[str, ...] = CACHES

    def check(self) -> None:
        if not self.writers or min(self.writers) < 1:
            raise ConfigError("--writers: whole numbers of 1 or more, comma-separated")
        if self.writes_each < 1 or self.edit_every < 1:
            raise ConfigError("--writes-each and --edit-every: 1 or more")
        if not 0 < self.duration_s <= 3600:
            raise ConfigError(f"--duration {self.duration_s:g}: more than 0, at most 3600 s")
        unknown = set(self.caches) - set(CACHES)
        if not self.caches or unknown:
            raise ConfigError(f"--cache: comma-separated, of {', '.join(CACHES)}")


@dataclass(frozen=True)
class ClusterPlan:
    topology: Topology
    client: Host
    front: Host
    apps: tuple[Host, ...]
    dbs: tuple[Host, ...]
    caches: tuple[Host, ...]  # none when the shared cache is not measured


def plan_cluster(topology: Topology, options: ClusterOptions, source: Path | str) -> ClusterPlan:
    """The hosts' parts, or a ConfigError naming ``source`` (the topology file)."""

    def first(role: str) -> Host:
        hosts = topology.with_role(role)
        if not hosts:
            raise ConfigError(f"{source}: the cluster needs a host with the role {role}")
        return hosts[0]

    if topology.ssh_hosts:
        names = ", ".join(host.name for host in topology.ssh_hosts)
        raise ConfigError(
            f"{source}: the cluster runs on the lab's namespaces, not on SSH hosts ({names})"
        )
    apps = topology.with_role("app")
    if len(apps) < MIN_APP_HOSTS:
        raise ConfigError(
            f"{source}: the cluster needs at least {MIN_APP_HOSTS} hosts with the role app "
            f"(it has {len(apps)})"
        )
    first("db")
    caches = topology.with_role("cache") if SHARED in options.caches else ()
    if SHARED in options.caches:
        first("cache")
    return ClusterPlan(
        topology, first("client"), first("front"), apps, topology.with_role("db"), caches
    )
