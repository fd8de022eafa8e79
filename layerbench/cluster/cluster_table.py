"""``layerbench cluster``'s tables: the writers (a row per way of writing, writer count and
number of nodes; "lost/2x" counts rows missing or there twice), the app hosts that answered the
HTTP writers, read-your-write across hosts (a row per site condition), and nginx's spread."""

from layerbench.cluster.cluster_result import ClusterResult
from layerbench.render.text_table import format_table


def render(result: ClusterResult) -> list[str]:
    writers = [
        [
            "via",
            "writers",
            "nodes",
            "writes",
            "writes/s",
            "1213 retried",
            "per 100",
            "client re-tries",
            "given up",
            "id collisions",
            "rows lost/2x",
            "audit lost/2x",
        ]
    ]
    rows = [*result.writers, *([result.one_node] if result.one_node else [])]
    for row in rows:
        writers.append(
            [
                row.via,
                str(row.writers),
                str(row.nodes),
                str(row.writes),
                f"{row.writes_per_s:.0f}",
                str(row.conflict_retries),
                f"{row.conflict_retries_per_100_writes:.1f}",
                str(row.client_retries),
                str(row.gave_up),
                str(row.id_collisions),
                str(row.rows_lost + row.rows_doubled),
                str(row.audit_rows_lost + row.audit_rows_doubled),
            ]
        )
    site = [
        [
            "cache",
            "wsrep_sync_wait",
            "rounds",
            "reads",
            "stale",
            "stale cached",
            "hits",
            "audit lost",
        ]
    ]
    for condition in result.site:
        reads = condition.read_your_write
        site.append(
            [
                condition.cache,
                str(condition.wsrep_sync_wait),
                str(reads.rounds),
                str(reads.reads),
                str(reads.stale_reads),
                str(reads.stale_pages_cached),
                str(reads.cache_hits),
                str(condition.audit_rows_lost),
            ]
        )
    lines = [f"{result.app_hosts} app hosts; writers through Galera's nodes (every node checked)"]
    lines += format_table(writers, 1, colour=False)
    for row in rows:
        if row.served_by_upstream:
            spread = ", ".join(f"{at} {n}" for at, n in row.served_by_upstream.items())
            lines.append(f"{row.writers} writers via {row.via}, answered by: {spread}")
    lines += ["", "read-your-write: written through the first app host, read through the last"]
    lines += format_table(site, 1, colour=False)
    for condition in result.site:
        spread = ", ".join(f"{at} {n}" for at, n in condition.served_by_upstream.items())
        lines.append(
            f"through nginx ({condition.cache}, sync_wait={condition.wsrep_sync_wait}): {spread}"
        )
    return lines
