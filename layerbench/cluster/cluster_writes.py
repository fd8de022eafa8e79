"""The cluster's writers: the site's repository writing through the Galera nodes at once
(:func:`~layerbench_sites.datalayer.concurrent_writers.run_writers`: writer i on node i mod N, every
``edit_every``-th write an edit of one shared video), and then, on every node, what the writes
left: each comment's row and its audit row, each edit's audit row, exactly once.

Run from the client host (its thread inside that host's network), so every connection crosses
the lab's bridge to the db host.
"""

from typing import Any

from layerbench.cluster.cluster_result import WritersRow
from layerbench.services.mariadb import connect_mariadb
from layerbench.sites import create_video, run_writers


def causal_query(url: str, sql: str, parameters: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Rows from the node at ``url``, read once it has applied every write the cluster had
    committed when the query came (``wsrep_sync_wait = 1``)."""
    connection = connect_mariadb(url)
    with connection, connection.cursor() as cursor:
        cursor.execute("SET SESSION wsrep_sync_wait = 1")
        cursor.execute(sql, parameters)
        return list(cursor.fetchall())


def count_on_node(url: str, video_id: str, comment_ids: list[str]) -> tuple[int, int, int]:
    """On the node at ``url``: the video's comments among ``comment_ids``, their insert audit
    rows, and the video's update audit rows."""
    marks = ", ".join(["%s"] * len(comment_ids)) or "NULL"
    ((comments,),) = causal_query(
        url, f"SELECT COUNT(*) FROM comments WHERE id IN ({marks})", tuple(comment_ids)
    )
    ((inserts,),) = causal_query(
        url,
        "SELECT COUNT(*) FROM history WHERE table_name = 'comments' AND operation = 'insert'"
        f" AND row_key IN ({marks})",
        tuple(comment_ids),
    )
    ((edits,),) = causal_query(
        url,
        "SELECT COUNT(*) FROM history WHERE table_name = 'videos' AND operation = 'update'"
        " AND row_key = %s",
        (video_id,),
    )
    return int(comments), int(inserts), int(edits)


def measure_writers(
    urls: list[str], check_urls: list[str], writers: int, writes_each: int, edit_every: int
) -> WritersRow:
    """``writers`` writers through ``urls``; what they left checked on every node of
    ``check_urls``."""
    video = create_video(urls[0], f"{writers} writers through {len(urls)} nodes")
    done = run_writers(urls, video, writers, writes_each, update_every=edit_every)
    comment_ids = done.comment_ids
    edits = sum(tally.video_edits for tally in done.tallies)
    rows_lost = audit_lost = audit_doubled = 0
    for url in check_urls:
        comments, inserts, edit_rows = count_on_node(url, video, comment_ids)
        rows_lost += len(set(comment_ids)) - comments
        audit_lost += max(0, len(comment_ids) - inserts) + max(0, edits - edit_rows)
        audit_doubled += max(0, inserts - len(comment_ids)) + max(0, edit_rows - edits)
    return WritersRow(
        writers=writers,
        nodes=len(urls),
        writes=done.writes,
        writes_per_s=done.writes_per_s,
        conflict_retries=done.transient_retries,
        gave_up=done.gave_up,
        id_collisions=len(comment_ids) - len(set(comment_ids)),
        id_collision_retries=done.collision_retries,
        rows_lost=rows_lost,
        audit_rows_lost=audit_lost,
        audit_rows_doubled=audit_doubled,
        trigger_errors=done.trigger_errors,
    )
