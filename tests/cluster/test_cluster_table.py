"""``layerbench cluster``'s table and JSON document from a result made by hand: every writer row
(via the repository, then via HTTP with its client re-tries, rows doubled and the app hosts that
answered, the node-1 anchor last), every site condition, nginx's spread, and per-100 retry
rates."""

import json

from layerbench.cluster.cluster_result import (
    HTTP,
    ClusterResult,
    ReadYourWrite,
    SiteCondition,
    WritersRow,
)
from layerbench.cluster.cluster_table import render


def writers_row(writers: int, nodes: int, retries: int) -> WritersRow:
    return WritersRow(writers, nodes, 40 * writers, 300.0, retries, 0, 0, 0, 0, 0, 0, 0)


HTTP_ROW = WritersRow(
    6, 2, 240, 150.0, 12, 1, 0, 0, 2, 0, 1, 0,
    via=HTTP, client_retries=3, rows_doubled=1,
    served_by_upstream={"10.77.0.3:8000": 130, "10.77.0.4:8000": 125},
)  # fmt: skip

RESULT = ClusterResult(
    hosts={"client1": ["client"], "app1": ["app"], "app2": ["app"]},
    app_hosts=2,
    writers=[writers_row(1, 3, 0), writers_row(6, 3, 60), HTTP_ROW],
    one_node=writers_row(6, 1, 3),
    site=[
        SiteCondition("shared", 1, ReadYourWrite("v", 10, 40, 0, 0, 20), {"10.77.0.3:8000": 20}, 0),
        SiteCondition("local", 0, ReadYourWrite("w", 10, 40, 36, 0, 38), {"10.77.0.4:8000": 20}, 0),
    ],
)


def test_the_table_has_every_row() -> None:
    lines = render(RESULT)
    rows = [line.split() for line in lines]
    repository = ["repository", "6", "3", "240", "300", "60", "25.0", "0", "0", "0", "0", "0"]
    http = ["http", "6", "2", "240", "150", "12", "5.0", "3", "1", "0", "3", "1"]
    assert rows[rows.index(repository) + 1] == http
    assert rows[rows.index(http) + 1] == [
        "repository", "6", "1", "240", "300", "3", "1.2", "0", "0", "0", "0", "0"
    ]  # fmt: skip
    assert "6 writers via http, answered by: 10.77.0.3:8000 130, 10.77.0.4:8000 125" in lines
    assert ["shared", "1", "10", "40", "0", "0", "20", "0"] in rows
    assert ["local", "0", "10", "40", "36", "0", "38", "0"] in rows
    assert "through nginx (local, sync_wait=0): 10.77.0.4:8000 20" in lines


def test_the_json_document_has_every_figure() -> None:
    document = json.loads(json.dumps(RESULT.to_dict()))
    assert document["version"] == 2
    assert [row["conflict_retries_per_100_writes"] for row in document["writers"]] == [
        0.0, 25.0, 5.0
    ]  # fmt: skip
    assert [row["via"] for row in document["writers"]] == ["repository", "repository", "http"]
    assert document["writers"][2]["client_retries"] == 3
    assert document["writers"][2]["served_by_upstream"]["10.77.0.4:8000"] == 125
    assert document["one_node"]["conflict_retries_per_100_writes"] == 1.25
    assert document["site"][1]["read_your_write"]["stale_reads"] == 36
