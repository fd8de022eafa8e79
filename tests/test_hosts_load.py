"""The load generator from two client hosts at once against one nginx on a front host, each
host a network namespace of the lab's (lab/load_from_hosts.py), and the two results merged
exactly (issue 26): the merged histogram holds every request of both, its percentiles those
of the union."""

import subprocess
import sys
from pathlib import Path
from typing import Any

from layerbench.hosts import netns
from layerbench.hosts.lab_network import LabNetwork, lab_network
from layerbench.hosts.topology import Host, topology_from
from layerbench.lab.load_from_hosts import load_from_clients
from layerbench.lab.loadgen import LoadSpec
from layerbench.proc.ports import free_port
from layerbench.rungs.definitions import STATIC_BODY, STATIC_FILE
from layerbench.servers.nginx import NginxStatic
from layerbench.stats import hdr_histogram
from tests.test_hosts import FETCH, can_make_namespaces, ours

__all__ = ["can_make_namespaces"]  # the fixture, used by name


class NginxOnHost(NginxStatic):
    """nginx inside a host's namespace, probed from inside it. It listens on every address
    of the namespace (its eth0 and its own loopback): the start's check that the port is free
    binds in layerbench's namespace, where the host's address does not exist."""

    def __init__(self, network: LabNetwork, host: Host, workdir: Path) -> None:
        super().__init__(workdir, free_port(), {STATIC_FILE: STATIC_BODY})
        self.network = network
        self.front = host
        self.host = "0.0.0.0"

    @property
    def base_url(self) -> str:
        return f"http://{self.front.address}:{self.port}"

    def command(self) -> list[str]:
        return self.network.command(self.front, super().command())

    def probe(self) -> str | None:
        url = self.base_url + self.ready_path
        fetch = self.network.command(self.front, [sys.executable, "-c", FETCH, url])
        done = subprocess.run(fetch, capture_output=True, text=True, timeout=10, check=False)
        return None if done.returncode == 0 else f"{url}: {done.stderr.strip()[-200:]}"


def test_two_client_hosts_load_one_nginx_and_merge_exactly(
    can_make_namespaces: None, nginx_binary: Path, load_binary: Path, workdir: Path
) -> None:
    topology = topology_from(
        {
            "hosts": {
                "client1": {"roles": ["client"]},
                "client2": {"roles": ["client"]},
                "front": {"roles": ["front"]},
            }
        },
        "t",
    )
    with lab_network(topology) as network:
        token = network.token
        nginx = NginxOnHost(network, topology.host("front"), workdir / "nginx")
        nginx.start()
        try:
            merged, results = load_from_clients(
                network,
                binary=load_binary,
                url=f"{nginx.base_url}/{STATIC_FILE}",
                spec=LoadSpec(concurrency=4, duration_s=1.0, warmup_s=0.2),
                workdir=workdir,
            )
        finally:
            nginx.stop()
    assert ours(token) == []
    documents: list[dict[str, Any]] = [result.document for result in results]
    assert len(results) == 2
    for result in results:
        assert result.requests_completed > 100
        assert result.status_counts == {"200": result.requests_completed}
    total = sum(result.requests_completed for result in results)
    assert merged.requests_completed == total
    histogram = hdr_histogram.decode(merged.latency_histogram_us or "")
    assert histogram.total_count == total
    # A percentile of the union lies between the clients' own.
    for name in ("p50", "p99", "p99_9"):
        own = [result.latency_us[name] for result in results]
        assert min(own) <= merged.latency_us[name] <= max(own), name
    # The merged figures are the summed histograms', not an average of the clients'.
    parts = [hdr_histogram.decode(d["latency_histogram_us"]) for d in documents]
    counts: dict[int, int] = {}
    for part in parts:
        for index, count in part.counts.items():
            counts[index] = counts.get(index, 0) + count
    assert histogram.counts == counts
    # The front's address is the lab's own: the machine's network never had it.
    assert str(topology.host("front").address) not in netns.ip("-4", "addr")
