"""``layerbench cluster``'s table and JSON document from a result made by hand: every writer row
(the node-1 anchor last), every site condition, nginx's spread, and per-100 retry rates."""

import json

from layerbench.report.cluster_table import render
from layerbench.results.cluster_result import (
    ClusterResult,
    ReadYourWrite,
    SiteCondition,
    WritersRow,
)


def writers_row(writers: int, nodes: int, retries: int) -> WritersRow:
    return WritersRow(writers, nodes, 40 * writers, 300.0, retries, 0, 0, 0, 0, 0, 0, 0)


RESULT = ClusterResult(
    hosts={"client1": ["client"], "app1": ["app"], "app2": ["app"]},
    app_hosts=2,
    writers=[writers_row(1, 3, 0), writers_row(6, 3, 60)],
    one_node=writers_row(6, 1, 3),
    site=[
        SiteCondition("shared", 1, ReadYourWrite("v", 10, 40, 0, 0, 20), {"10.77.0.3:8000": 20}, 0),
        SiteCondition("local", 0, ReadYourWrite("w", 10, 40, 36, 0, 38), {"10.77.0.4:8000": 20}, 0),
    ],
)


def test_the_table_has_every_row() -> None:
    lines = render(RESULT)
    rows = [line.split() for line in lines]
    assert ["6", "3", "240", "300", "60", "25.0", "0", "0", "0", "0"] in rows
    assert rows[rows.index(["6", "3", "240", "300", "60", "25.0", "0", "0", "0", "0"]) + 1] == [
        "6", "1", "240", "300", "3", "1.2", "0", "0", "0", "0"
    ]  # fmt: skip
    assert ["shared", "1", "10", "40", "0", "0", "20", "0"] in rows
    assert ["local", "0", "10", "40", "36", "0", "38", "0"] in rows
    assert "through nginx (local, sync_wait=0): 10.77.0.4:8000 20" in lines


def test_the_json_document_has_every_figure() -> None:
    document = json.loads(json.dumps(RESULT.document()))
    assert document["version"] == 1
    assert [row["conflict_retries_per_100_writes"] for row in document["writers"]] == [0.0, 25.0]
    assert document["one_node"]["conflict_retries_per_100_writes"] == 1.25
    assert document["site"][1]["read_your_write"]["stale_reads"] == 36
