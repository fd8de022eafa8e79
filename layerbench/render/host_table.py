"""The per-host table of a run on a topology: each host's CPU and memory, summed per role of
its processes (the sampler tells each process's host by its network namespace), for every
measured rung or cell (its median trial); a host where nothing was sampled is still named.

    per host: CPU % of one core, each rung's median trial; peak PSS over them
    host     address    roles      role      string  cache  PSS MB
    client1  10.77.0.1  client     client       61     58       4
"""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from layerbench.render.text_table import format_table
from layerbench.results.trials import Repeated
from layerbench.typed_documents import JsonObject, decode_at

MB = 1024 * 1024
LOCAL_HOST = "local"  # a process in none of the run's namespaces
# A run's measured items (a rung, a cell), each with its label.
Items = Sequence[tuple[str, Repeated]]


@dataclass
class HostRole:
    """One role's processes on one host: CPU % of one core per measured item, peak PSS."""

    host: str
    address: str
    roles: tuple[str, ...]
    role: str | None  # None: nothing was sampled on the host
    cpu_percent: dict[str, float] = field(default_factory=dict)
    pss_bytes: int = 0

    def to_dict(self) -> JsonObject:
        return {
            "host": self.host,
            "address": self.address,
            "roles": list(self.roles),
            "role": self.role,
            "cpu_percent": self.cpu_percent,
            "peak_pss_bytes": self.pss_bytes,
        }


@dataclass(frozen=True)
class RecordedHost:
    """A host of the run's topology as its conditions record it (``conditions.topology``)."""

    name: str
    address: str
    roles: tuple[str, ...]
    namespace: str | None = None


@dataclass(frozen=True)
class RecordedTopology:
    hosts: tuple[RecordedHost, ...] = ()


def per_host(conditions: object, items: Items) -> list[HostRole]:
    """On a topology (the run's ``conditions`` have ``topology``): the per-host rows of its
    measured ``items``; none without one. It reads the conditions, and changes nothing."""
    recorded = conditions.get("topology") if isinstance(conditions, Mapping) else None
    if recorded is None:
        return []
    return host_roles(recorded, items)


def host_roles(recorded: object, items: Items) -> list[HostRole]:
    """Per host of the topology as the run's conditions record it (``conditions.topology``,
    read into :class:`RecordedTopology`) and role of its processes, in the topology's order,
    then processes on no host of it."""
    topology = decode_at(RecordedTopology, recorded, "conditions.topology")
    hosts = {host.name: host for host in topology.hosts}
    found: dict[tuple[str, str], HostRole] = {}
    for label, item in items:
        usage = item.usage
        if usage is None or usage.interval_s <= 0:
            continue
        pss: dict[tuple[str, str], int] = {}
        for role in usage.roles.values():
            for process in role.processes:
                name = process.host or LOCAL_HOST
                key = (name, role.role)
                if key not in found:
                    host = hosts.get(name)
                    address, roles = (host.address, host.roles) if host else ("", ())
                    found[key] = HostRole(name, address, roles, role.role)
                share = 100 * process.cpu_s / usage.interval_s
                found[key].cpu_percent[label] = found[key].cpu_percent.get(label, 0.0) + share
                pss[key] = pss.get(key, 0) + process.pss_bytes
        for key, total in pss.items():  # the peak over the items of the role's sum
            found[key].pss_bytes = max(found[key].pss_bytes, total)
    ordered: list[HostRole] = []
    for name, host in hosts.items():
        mine = [row for (host_name, _), row in found.items() if host_name == name]
        ordered += mine or [HostRole(name, host.address, host.roles, None)]
    ordered += [row for (host_name, _), row in found.items() if host_name not in hosts]
    return ordered


def with_per_host(document: JsonObject, rows: Sequence[HostRole]) -> JsonObject:
    """A new document: ``document`` and, with ``rows``, its ``per_host`` (the run's own
    document, as it is saved: a stored document is never changed)."""
    if not rows:
        return dict(document)
    return {**document, "per_host": [row.to_dict() for row in rows]}


TITLE = "per host: CPU % of one core (median trial of each), peak PSS over them"


def host_table_rows(rows: Sequence[HostRole], labels: Sequence[str]) -> list[list[str]]:
    """The header, then a row per host and role: its CPU for each of ``labels``, its PSS."""
    table = [["host", "address", "roles", "role", *labels, "PSS MB"]]
    for row in rows:
        figures = [_percent(row.cpu_percent.get(label)) for label in labels]
        memory = f"{row.pss_bytes / MB:.0f}" if row.role else "-"
        table.append(
            [row.host, row.address, ", ".join(row.roles), row.role or "-", *figures, memory]
        )
    return table


def format_host_table(rows: Sequence[HostRole], labels: Sequence[str]) -> str:
    """The table; empty without rows."""
    if not rows:
        return ""
    return "\n".join([TITLE, *format_table(host_table_rows(rows, labels), right_from=4)])


def _percent(value: float | None) -> str:
    return "-" if value is None else f"{value:.0f}"
