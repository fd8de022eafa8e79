"""The host tests' load: nginx serving the static rung's file on the lab host ``front``, loaded
from every client host at once (lab/load_from_hosts.py), and the check that the merged result
holds every client's requests exactly."""

from pathlib import Path

from layerbench.hosts.lab_network import LabNetwork
from layerbench.lab.host_nginx import NginxOnHost
from layerbench.lab.load_from_hosts import load_from_clients
from layerbench.lab.loadgen import LoadSpec
from layerbench.results.load_result import LoadResult
from layerbench.rungs.definitions import STATIC_BODY, STATIC_FILE


def load_front_nginx(
    network: LabNetwork, *, load_binary: Path, workdir: Path, spec: LoadSpec
) -> tuple[LoadResult, list[LoadResult]]:
    """nginx on ``front`` under ``spec``'s load from every client host, stopped once the load
    ends (or fails); the merged result and each client's."""
    front = network.topology.host("front")
    with NginxOnHost(network, front, workdir / "nginx", {STATIC_FILE: STATIC_BODY}) as nginx:
        return load_from_clients(
            network,
            binary=load_binary,
            url=f"{nginx.base_url}/{STATIC_FILE}",
            spec=spec,
            workdir=workdir,
        )


def check_merged_exactly(merged: LoadResult, results: list[LoadResult]) -> None:
    """Every client's requests were answered 200, and ``merged`` holds them all: its counts
    their sums, and the clients' documents as they came (``layerbench-load merge`` added their
    histograms bucket by bucket: load/tests/merge.rs)."""
    for result in results:
        assert result.requests_completed > 100
        assert result.status_counts == {"200": result.requests_completed}
    total = sum(result.requests_completed for result in results)
    assert merged.requests_completed == total
    assert merged.status_counts == {"200": total}
    assert merged.document["clients"] == [result.document for result in results]
    assert merged.latency_us["max"] == max(result.latency_us["max"] for result in results)
