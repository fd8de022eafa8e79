"""``layerbench cluster`` on a reduced topology, everything real: the hosts as network
namespaces, Galera's three nodes on the db host, a memcached pool on two cache hosts, gunicorn
on two app hosts (app host i on node i), nginx least_conn on the front, every measurement made
from the client host. Asserted: no id collided and no row or audit row is missing or doubled
on any node, by the repository's writers and by the writers through the site's HTTP API, whose
writes both app hosts answered; the balancer spreads requests over both app hosts, no page
read through app host 2 after a write through app host 1 is stale with the page cache shared
and Galera's reads causal, and with per-host caches they are (host 1's sweeper cannot reach
host 2's cache). Afterwards nothing is left: no namespace of the run, no process in one."""

import os
import tempfile
from dataclasses import dataclass
from pathlib import Path

import pytest

from layerbench.cluster.cluster_plan import LOCAL, SHARED, ClusterOptions, plan_cluster
from layerbench.cluster.cluster_result import HTTP, REPOSITORY, ClusterResult
from layerbench.cluster.cluster_run import empty_result, run_cluster
from layerbench.errors import MissingBinaryError
from layerbench.hosts import netns
from layerbench.hosts.lab_network import STATE_DIR
from layerbench.hosts.topology import topology_from
from layerbench.proc.work_dirs import MARKER, owner_record
from tests.conftest import missing
from tests.service_nodes import alive

pytestmark = pytest.mark.services

REDUCED = {
    "hosts": {
        "client1": {"roles": ["client"]},
        "front": {"roles": ["front"]},
        "app1": {"roles": ["app"]},
        "app2": {"roles": ["app"]},
        "db1": {"roles": ["db"]},
        "cache1": {"roles": ["cache"]},
        "cache2": {"roles": ["cache"]},
    }
}
OPTIONS = ClusterOptions(writers=(1, 3), writes_each=12, edit_every=3, duration_s=1.0)


def our_work_directories() -> list[Path]:
    """The run's work directories marked as this process's (the next command's sweep removes
    them should the run be killed)."""
    found = []
    for directory in Path(tempfile.gettempdir()).glob("layerbench-cl-*"):
        marker = directory / MARKER
        if marker.is_file() and marker.read_text().strip() == owner_record(os.getpid()):
            found.append(directory)
    return found


def our_namespaces() -> list[str]:
    """The namespaces of this process's runs (their markers name this process as owner)."""
    names = []
    for marker in STATE_DIR.glob("*"):
        with_owner = marker.read_text().splitlines() if marker.is_file() else []
        if with_owner and with_owner[0] == owner_record(os.getpid()):
            names += with_owner[1:]
    return names


@dataclass(frozen=True)
class Reduced:
    result: ClusterResult
    namespaces: list[str]
    pids: list[int]  # every process in them while the site ran
    progress: list[str]
    work_directories: list[Path]  # the run's, marked ours, while the site ran


@pytest.fixture(scope="module")
def reduced_run() -> Reduced:
    """The reduced cluster's result, its namespaces and the processes that ran in them."""
    if os.geteuid() != 0:
        missing("network namespaces need root")
    plan = plan_cluster(topology_from(REDUCED, "reduced"), OPTIONS, "reduced")
    seen: dict[str, list[str]] = {"namespaces": []}
    pids: list[int] = []
    work_directories: list[Path] = []

    lines: list[str] = []

    def progress(line: str) -> None:
        lines.append(line)
        if line.startswith("site,"):  # every server of the site is up
            seen["namespaces"] = our_namespaces()
            pids.extend(pid for name in seen["namespaces"] for pid in netns.pids_in(name))
            work_directories.extend(our_work_directories())

    result = empty_result(plan)
    try:
        run_cluster(plan, OPTIONS, result, progress)
    except MissingBinaryError as error:
        missing(str(error))
    return Reduced(result, seen["namespaces"], pids, lines, work_directories)


def test_writers_on_every_node_collide_never_and_lose_nothing(
    reduced_run: Reduced,
) -> None:
    result = reduced_run.result
    assert result.one_node is not None
    rows = [*result.writers, result.one_node]
    assert [(row.via, row.writers, row.nodes) for row in rows] == [
        (REPOSITORY, 1, 3), (REPOSITORY, 3, 3), (HTTP, 1, 2), (HTTP, 3, 2), (REPOSITORY, 3, 1)
    ]  # fmt: skip
    for row in rows:
        assert row.writes == row.writers * OPTIONS.writes_each, row
        assert row.gave_up == 0, row
        assert (row.id_collisions, row.rows_lost) == (0, 0), row
        assert (row.audit_rows_lost, row.audit_rows_doubled) == (0, 0), row
        assert row.rows_doubled == 0, row


def test_http_writers_went_through_every_app_host(reduced_run: Reduced) -> None:
    http_rows = [row for row in reduced_run.result.writers if row.via == HTTP]
    assert http_rows, reduced_run.result.writers
    for row in http_rows:
        # Every committed write was answered by an app host, and so was each failed attempt
        # that got an answer (a 409 or a 5xx; a reset connection has none).
        answered = sum(row.served_by_upstream.values())
        assert row.writes <= answered <= row.writes + row.client_retries + row.gave_up, row
        assert "" not in row.served_by_upstream, row
    # With 3 writers at once, least_conn sends to both app hosts (each on its own node).
    served = http_rows[-1].served_by_upstream
    assert len(served) == 2 and min(served.values()) > 0, served


def test_no_stale_page_across_hosts_with_the_shared_cache_and_causal_reads(
    reduced_run: Reduced,
) -> None:
    result = reduced_run.result
    by_condition = {(c.cache, c.wsrep_sync_wait): c for c in result.site}
    assert set(by_condition) == {(SHARED, 0), (SHARED, 1), (LOCAL, 0), (LOCAL, 1)}
    causal = by_condition[SHARED, 1].read_your_write
    assert causal.rounds > 0 and causal.cache_hits > 0
    assert causal.stale_reads == 0, causal
    # The detector detects: host 2's own cache keeps the page host 1's write swept elsewhere.
    for sync_wait in (0, 1):
        local = by_condition[LOCAL, sync_wait].read_your_write
        assert local.stale_reads > 0, local
    for condition in result.site:
        assert condition.audit_rows_lost == 0, condition


def test_nginx_spreads_the_requests_over_every_app_host(
    reduced_run: Reduced,
) -> None:
    result = reduced_run.result
    for condition in result.site:
        served = condition.served_by_upstream
        assert len(served) == 2 and min(served.values()) > 0, served


def test_the_shared_cache_is_a_pool_on_every_cache_host(reduced_run: Reduced) -> None:
    assert "the page cache: memcached on cache1, cache2" in reduced_run.progress


def test_nothing_is_left_after_the_run(
    reduced_run: Reduced,
) -> None:
    namespaces, pids = reduced_run.namespaces, reduced_run.pids
    assert len(namespaces) == 1 + len(REDUCED["hosts"]) and len(pids) >= 5
    assert set(namespaces) & set(netns.namespaces()) == set()
    assert [pid for pid in pids if alive(pid)] == []
    assert our_namespaces() == []
    # Its work directory was marked (swept after a kill; seen missing the marker) and is gone.
    (work_directory,) = set(reduced_run.work_directories)  # one, seen at each condition
    assert not work_directory.exists()
    assert not any(Path(f"/run/netns/{name}").exists() for name in namespaces)
