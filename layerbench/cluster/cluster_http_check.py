"""What the HTTP writers left, on every Galera node, read causally: each new video's row and its
insert audit row, each comment's row (by its id, its body on no other row) and its insert audit
row, every one exactly once; each edit's update audit row of the shared video (found by its
description) once, or up to once a sending for an edit sent again (another writer's edit may
have come between its sendings: the edit is made again, as a PUT of the shared video must be);
and the writers' row of the cluster's table."""

import json
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

from layerbench.cluster.cluster_http_writes import HttpWrites
from layerbench.cluster.cluster_result import HTTP, WritersRow
from layerbench.cluster.cluster_writes import causal_query


@dataclass(frozen=True)
class NodeCheck:
    rows_lost: int
    rows_doubled: int
    audit_lost: int
    audit_doubled: int


def in_list(values: list[str]) -> str:
    return ", ".join(["%s"] * len(values)) or "NULL"


def off_by(expected: Iterable[str], found: Counter[str]) -> tuple[int, int]:
    """Of ``expected`` (each once): how many ``found`` lacks, and how many it has more than
    once (the copies beyond the first)."""
    return off_by_at_most(dict.fromkeys(expected, 1), found)


def off_by_at_most(expected: dict[str, int], found: Counter[str]) -> tuple[int, int]:
    """Of ``expected`` (each key at least once, at most its count of times): how many keys
    ``found`` lacks, and how many copies it has beyond their counts."""
    lost = sum(1 for key in expected if found[key] == 0)
    doubled = sum(max(0, found[key] - most) for key, most in expected.items())
    return lost, doubled


def audit_keys(url: str, table: str, operation: str, keys: list[str]) -> Counter[str]:
    rows = causal_query(
        url,
        f"SELECT row_key FROM history WHERE table_name = %s AND operation = %s"
        f" AND row_key IN ({in_list(keys)})",
        (table, operation, *keys),
    )
    return Counter(str(key) for (key,) in rows)


def check_node(url: str, writes: HttpWrites) -> NodeCheck:
    tally, shared = writes.tally, writes.shared_video
    videos = tally.video_ids
    found = causal_query(url, f"SELECT id FROM videos WHERE id IN ({in_list(videos)})", (*videos,))
    video_lost, _ = off_by(videos, Counter(str(key) for (key,) in found))
    video_audit = off_by(videos, audit_keys(url, "videos", "insert", videos))
    comments = causal_query(
        url,
        "SELECT c.id, c.body FROM comments c JOIN videos v ON c.video_numid = v.numid"
        " WHERE v.id = %s",
        (shared,),
    )
    comment_lost, _ = off_by(tally.comments, Counter(str(key) for key, _ in comments))
    # A body on two rows: a write made twice (a given-up one's body too).
    bodies = Counter(str(body) for _, body in comments)
    comment_doubled = sum(count - 1 for count in bodies.values())
    comment_ids = [str(key) for key, _ in comments]
    comment_audit = off_by(comment_ids, audit_keys(url, "comments", "insert", comment_ids))
    updates = causal_query(
        url,
        "SELECT new_values FROM history WHERE table_name = 'videos' AND operation = 'update'"
        " AND row_key = %s",
        (shared,),
    )
    descriptions = Counter(json.loads(new)["description"] for (new,) in updates)
    edit_audit = off_by_at_most(tally.edits, descriptions)
    return NodeCheck(
        rows_lost=video_lost + comment_lost,
        rows_doubled=comment_doubled,
        audit_lost=video_audit[0] + comment_audit[0] + edit_audit[0],
        audit_doubled=video_audit[1] + comment_audit[1] + edit_audit[1],
    )


def http_writers_row(
    writes: HttpWrites, writers: int, nodes: int, check_urls: list[str]
) -> WritersRow:
    """The row of ``writers`` HTTP writers through ``nodes`` nodes, checked on ``check_urls``."""
    checks = [check_node(url, writes) for url in check_urls]
    tally = writes.tally
    return WritersRow(
        writers=writers,
        nodes=nodes,
        writes=tally.writes,
        writes_per_s=writes.writes_per_s,
        conflict_retries=tally.site_retries,
        gave_up=tally.gave_up,
        id_collisions=tally.id_collisions + len(tally.video_ids) - len(set(tally.video_ids)),
        id_collision_retries=0,
        rows_lost=sum(check.rows_lost for check in checks),
        audit_rows_lost=sum(check.audit_lost for check in checks),
        audit_rows_doubled=sum(check.audit_doubled for check in checks),
        trigger_errors=0,
        via=HTTP,
        client_retries=tally.client_retries,
        rows_doubled=sum(check.rows_doubled for check in checks),
        served_by_upstream=dict(sorted(tally.served.items())),
    )
