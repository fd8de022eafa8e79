"""The load generator from two client hosts at once against one nginx on a front host, each
host a network namespace of the lab's, and the two results merged exactly (issue 26): the
merged histogram holds every request of both, its percentiles those of the union."""

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from layerbench.hosts import netns
from layerbench.hosts.lab_network import LabNetwork, lab_network
from layerbench.hosts.topology import Host, topology_from
from layerbench.proc.ports import free_port
from layerbench.results.load_merge import merge_loads
from layerbench.results.load_result import LoadResult
from layerbench.rungs.definitions import STATIC_BODY, STATIC_FILE
from layerbench.servers.nginx import NginxStatic
from layerbench.stats import hdr_histogram
from tests.test_hosts import FETCH, can_make_namespaces, ours

REQUESTS = 3000
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
            url = f"{nginx.base_url}/{STATIC_FILE}"
            argv = [
                str(load_binary),
                "-q",
                "--json",
                "-",
                "-n",
                str(REQUESTS),
                "-c",
                "4",
                "-k",
                url,
            ]
            clients = [
                subprocess.Popen(network.command(host, argv), stdout=subprocess.PIPE, text=True)
                for host in topology.with_role("client")
            ]
            outputs = [client.communicate(timeout=60)[0] for client in clients]
            assert [client.returncode for client in clients] == [0, 0]
        finally:
            nginx.stop()
    assert ours(token) == []
    documents: list[dict[str, Any]] = [json.loads(output) for output in outputs]
    results = [LoadResult.from_document(document) for document in documents]
    for result in results:
        assert result.status_counts == {"200": REQUESTS}
    merged = merge_loads(results)
    assert merged.requests_completed == 2 * REQUESTS
    histogram = hdr_histogram.decode(merged.latency_histogram_us or "")
    assert histogram.total_count == 2 * REQUESTS
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
