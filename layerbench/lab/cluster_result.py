"""What ``layerbench cluster`` measured: plain data, every figure's unit in its name."""

from dataclasses import asdict, dataclass, field
from typing import Any

from layerbench.lab.cluster_reads import ReadYourWrite
from layerbench.lab.cluster_writes import WritersRow


@dataclass(frozen=True)
class SiteCondition:
    """The site under one condition: the page cache shared or per host, Galera's reads causal
    (``wsrep_sync_wait = 1``) or not (0, its default)."""

    cache: str
    wsrep_sync_wait: int
    read_your_write: ReadYourWrite
    # Requests through the front per app host (ADDRESS:PORT).
    served_by_upstream: dict[str, int]
    # The site's writes without their audit row on a node, summed over the nodes.
    audit_rows_lost: int


@dataclass
class ClusterResult:
    hosts: dict[str, list[str]]  # a host's name: its roles
    app_hosts: int
    writers: list[WritersRow] = field(default_factory=list)
    # The largest writer count through node 1 alone, against the same through every node.
    one_node: WritersRow | None = None
    site: list[SiteCondition] = field(default_factory=list)

    def document(self) -> dict[str, Any]:
        return {
            "version": 1,
            **asdict(self),
            "writers": [writers_document(row) for row in self.writers],
            "one_node": None if self.one_node is None else writers_document(self.one_node),
        }


def writers_document(row: WritersRow) -> dict[str, Any]:
    return {**asdict(row), "conflict_retries_per_100_writes": row.conflict_retries_per_100_writes}
