"""The load generator from two client hosts at once against one nginx on a front host, each
host a network namespace of the lab's (lab/load_from_hosts.py), and the two results merged
exactly (issue 26): the merged histogram holds every request of both, its percentiles those
of the union."""

from pathlib import Path
from typing import Any

import pytest

from layerbench.errors import ConfigError, LoadGeneratorError
from layerbench.hosts import netns
from layerbench.hosts.lab_network import LabNetwork, lab_network
from layerbench.hosts.topology import topology_from
from layerbench.lab.load_from_hosts import load_from_clients
from layerbench.lab.loadgen import LoadSpec
from tests.e2e.test_hosts import can_make_namespaces, ours
from tests.front_nginx_load import check_merged_exactly, load_front_nginx
from tests.load_documents import validate

__all__ = ["can_make_namespaces"]  # the fixture, used by name


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
        spec = LoadSpec(concurrency=4, duration_s=1.0, warmup_s=0.2)
        merged, results = load_front_nginx(
            network, load_binary=load_binary, workdir=workdir, spec=spec
        )
    assert ours(token) == []
    documents: list[dict[str, Any]] = [result.document for result in results]
    assert len(results) == 2
    check_merged_exactly(merged, results)
    total = merged.requests_completed
    # One load document, of one client's schema, the clients' listed and their counts added.
    validate(merged.document)
    assert merged.document["clients"] == documents
    for name in ("total_transferred_bytes", "html_transferred_bytes", "sent_bytes"):
        assert merged.document[name] == sum(d[name] for d in documents), name
    assert merged.requests_per_s == total / max(d["elapsed_s"] for d in documents)
    # A percentile of the union lies between the clients' own.
    for name in ("p50", "p99", "p99_9"):
        own = [result.latency_us[name] for result in results]
        assert min(own) <= merged.latency_us[name] <= max(own), name
    # The front's address is the lab's own: the machine's network never had it.
    assert str(topology.host("front").address) not in netns.ip("-4", "addr")


def test_a_client_that_reaches_nothing_fails_the_run_and_leaves_nothing(
    can_make_namespaces: None, load_binary: Path, workdir: Path
) -> None:
    topology = topology_from(
        {"hosts": {"client1": {"roles": ["client"]}, "front": {"roles": ["front"]}}}, "t"
    )
    spec = LoadSpec(concurrency=2, duration_s=0.5, warmup_s=0.0)
    with pytest.raises(LoadGeneratorError), lab_network(topology) as network:
        token = network.token
        url = f"http://{topology.host('front').address}:9/"  # nothing listens there
        load_from_clients(network, binary=load_binary, url=url, spec=spec, workdir=workdir)
    assert ours(token) == []
    no_clients = topology_from({"hosts": {"front": {"roles": ["front"]}}}, "t")
    with pytest.raises(ConfigError, match="no host with the role client"):
        load_from_clients(
            LabNetwork(no_clients, "x"), binary=load_binary, url="", spec=spec, workdir=workdir
        )
