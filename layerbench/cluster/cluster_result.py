"""What ``layerbench cluster`` measured: plain data, every figure's unit in its name."""

from dataclasses import asdict, dataclass, field

from layerbench.typed_documents import JsonObject

REPOSITORY = "repository"  # the writers call the site's repository on the nodes themselves
HTTP = "http"  # the writers send the site's HTTP API requests through nginx's front


@dataclass(frozen=True)
class WritersRow:
    """One run of ``writers`` writers through ``nodes`` Galera nodes, ``via`` the site's
    repository or its HTTP API (each app host on its own node)."""

    writers: int
    nodes: int
    writes: int
    writes_per_s: float
    # Transactions run again after error 1213 (a certification conflict between nodes, or a
    # deadlock on one; through HTTP the site's, each answer's X-Write-Attempts - 1), and writes
    # given up (after the repository's bounded retries; through HTTP, after the client's).
    conflict_retries: int
    gave_up: int
    # Two committed comments with one id (must be 0); inserts whose id was taken and were
    # retried with a new one (the seed's guard).
    id_collisions: int
    id_collision_retries: int
    # Summed over the nodes: committed writes without their row or audit row on a node, and
    # audit rows more than once.
    rows_lost: int
    audit_rows_lost: int
    audit_rows_doubled: int
    trigger_errors: int
    via: str = REPOSITORY
    # Through HTTP: the failed PUTs the client sent again, committed rows found more than once
    # on a node (summed over the nodes), and the answers each app host gave (ADDRESS:PORT).
    client_retries: int = 0
    rows_doubled: int = 0
    served_by_upstream: dict[str, int] = field(default_factory=dict)

    @property
    def conflict_retries_per_100_writes(self) -> float:
        return 100 * self.conflict_retries / self.writes if self.writes else 0.0


@dataclass(frozen=True)
class ReadYourWrite:
    video_id: str
    rounds: int
    reads: int
    stale_reads: int
    # Stale reads the reading host built itself (a miss), and so put into the page cache.
    stale_pages_cached: int
    cache_hits: int


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
    # Where it ran: the topology's hosts as made (addresses, namespaces).
    conditions: JsonObject = field(default_factory=dict)
    started_at: str = ""
    finished_at: str | None = None
    # Stopped by Ctrl-C: the figures are those measured by then.
    interrupted: bool = False

    def to_dict(self) -> JsonObject:
        return {
            "version": 2,  # 2: a writers row says via what it wrote, and through HTTP more
            **asdict(self),
            "writers": [writers_document(row) for row in self.writers],
            "one_node": None if self.one_node is None else writers_document(self.one_node),
        }


def writers_document(row: WritersRow) -> JsonObject:
    return {**asdict(row), "conflict_retries_per_100_writes": row.conflict_retries_per_100_writes}
