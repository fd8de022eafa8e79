"""A topology: the hosts of a run and their roles, read from a small TOML file.

    subnet = "10.77.0.0/24"      # optional; it exists only inside the lab's namespaces

    [hosts.client1]
    roles = ["client"]

    [hosts.front]
    roles = ["front"]

    [hosts.db1]
    roles = ["db", "cache"]

Each host gets the subnet's next address, in the file's order (.1, .2, ...). A host's name is
lower-case letters, digits and ``-`` (it names its namespace). A host with an ``ssh`` key is a
real machine reached over SSH instead, a client only (:mod:`layerbench.hosts.ssh_host`; the
top-level ``ssh_config`` names the file ``ssh -F`` reads, relative to the topology's
directory). Every mistake is a :class:`~layerbench.errors.ConfigError` of one line naming the
file.
"""

import ipaddress
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, ClassVar, Literal, get_args

from layerbench.documents import MIB, parse_toml, read_text
from layerbench.errors import ConfigError
from layerbench.hosts.netns import machine_networks
from layerbench.hosts.ssh_host import SshHost, SshHostTable, ssh_host_from
from layerbench.typed_documents import Bounds, Closed, Refusal, decode

Role = Literal["client", "front", "app", "db", "cache"]
ROLES: tuple[Role, ...] = get_args(Role)
DEFAULT_SUBNET = "10.77.0.0/24"
# RFC 1918's private ranges, exactly: not loopback, link-local, "this network", reserved or
# documentation ranges, which ``is_private`` also calls private.
PRIVATE_RANGES = tuple(
    ipaddress.IPv4Network(block) for block in ("10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16")
)
NAME = re.compile(r"[a-z][a-z0-9-]{0,19}")
MAX_TOPOLOGY_BYTES = MIB


@dataclass(frozen=True)
class Host:
    name: str
    roles: tuple[str, ...]
    address: ipaddress.IPv4Address


@dataclass(frozen=True)
class Topology:
    subnet: ipaddress.IPv4Network
    hosts: tuple[Host, ...]  # the lab's namespaces
    ssh_hosts: tuple[SshHost, ...] = ()  # the machines reached over SSH
    ssh_config: Path | None = None

    def host(self, name: str) -> Host:
        for host in self.hosts:
            if host.name == name:
                return host
        raise ConfigError(f"the topology has no host {name!r}")

    def with_role(self, role: str) -> tuple[Host, ...]:
        return tuple(host for host in self.hosts if role in host.roles)


def read_topology(path: Path) -> Topology:
    """The topology in the TOML file ``path``."""
    what = f"the topology {path}"
    document = parse_toml(read_text(path, what, MAX_TOPOLOGY_BYTES), what)
    return topology_from(document, str(path), directory=path.parent)


def _ssh_config(value: str | None, source: str, directory: Path) -> Path | None:
    if value is None:
        return None
    path = directory / Path(value).expanduser()
    if not path.is_file():
        raise ConfigError(f"{source}: ssh_config {value!r} is not a file")
    return path


ROLES_REFUSED = f"must be a list of {', '.join(ROLES)}, each once"


@dataclass(frozen=True)
class HostRoles:
    """What every host's table says: its roles."""

    roles: Annotated[tuple[Role, ...], Bounds(least=1), Refusal(ROLES_REFUSED)]


@dataclass(frozen=True)
class NamespaceHostTable(HostRoles, Closed):
    """``[hosts.NAME]`` of a host in the lab's namespaces: its roles, nothing else."""

    KEYS: ClassVar[str] = "roles; ssh for a host reached over SSH"


@dataclass(frozen=True)
class TopologyFile(Closed):
    """The topology file as written; a host's table is read by its kind (an ``ssh`` key makes
    it an :class:`~layerbench.hosts.ssh_host.SshHostTable`), under its own name."""

    subnet: str = DEFAULT_SUBNET
    hosts: dict[str, object] = field(default_factory=dict)  # each host's table, read below
    ssh_config: str | None = None


def topology_from(
    document: Mapping[str, object], source: str, *, directory: Path = Path()
) -> Topology:
    written = decode(TopologyFile, document, source)
    ssh_config = _ssh_config(written.ssh_config, source, directory)
    subnet = _subnet(written.subnet, source)
    if not written.hosts:
        raise ConfigError(f"{source}: no [hosts.NAME] table")
    addresses = iter(subnet.hosts())  # a list for a /31 or a /32, not an iterator
    hosts = []
    ssh_hosts = []
    for name, table in written.hosts.items():
        where = f"{source}: host {name}"
        if not NAME.fullmatch(name):
            raise ConfigError(
                f"{source}: host name {name!r}: lower-case letters, digits and '-', at most 20"
            )
        roles = decode(HostRoles, table, where).roles
        if len(set(roles)) < len(roles):
            raise ConfigError(f"{where}: roles {ROLES_REFUSED}")
        if isinstance(table, dict) and "ssh" in table:
            ssh_hosts.append(ssh_host_from(name, decode(SshHostTable, table, where), where))
            continue
        decode(NamespaceHostTable, table, where)  # nothing but its roles
        address = next(addresses, None)
        if address is None:
            raise ConfigError(f"{source}: subnet {subnet} has too few addresses for its hosts")
        hosts.append(Host(name, roles, address))
    return Topology(subnet, tuple(hosts), tuple(ssh_hosts), ssh_config)


def _subnet(value: str, source: str) -> ipaddress.IPv4Network:
    """The lab's subnet: inside one of RFC 1918's private ranges, and apart from every address
    and route of this machine's own network (a host given the machine's eth0 address would
    cut it off, or be cut off)."""
    try:
        subnet = ipaddress.IPv4Network(value)
    except ValueError as error:
        raise ConfigError(f"{source}: subnet: {error}") from None
    if not any(subnet.subnet_of(block) for block in PRIVATE_RANGES):
        raise ConfigError(
            f"{source}: subnet {subnet} is not a private range (10/8, 172.16/12, 192.168/16)"
        )
    taken = [network for network in machine_networks() if network.overlaps(subnet)]
    if taken:
        raise ConfigError(
            f"{source}: subnet {subnet} overlaps this machine's own network ({taken[0]}): "
            "choose a subnet it does not use"
        )
    return subnet
