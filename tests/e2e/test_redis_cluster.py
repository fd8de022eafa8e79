"""A throwaway Redis Cluster (issue 26): six nodes on loopback, three masters with a replica
each, every port and cluster bus port below the ephemeral range; keys spread over the three
masters, each written through a client that started from one node and read through one that
started from another. Stopped, nothing is left."""

from collections.abc import Iterator

import pytest

from layerbench.services.redis import redis_client
from layerbench.services.redis_cluster import (
    BUS_PORT_OFFSET,
    RedisClusterService,
    cluster_client,
    cluster_state,
)
from tests.conftest import start_service
from tests.service_nodes import leaving_nothing

pytestmark = pytest.mark.services

KEYS = 300


@pytest.fixture(scope="module")
def cluster() -> Iterator[RedisClusterService]:
    service = start_service("redis-cluster")
    assert isinstance(service, RedisClusterService)
    with leaving_nothing(service):
        yield service


def test_six_nodes_three_masters_each_with_a_replica(cluster: RedisClusterService) -> None:
    assert len(set(cluster.urls)) == 6
    assert [cluster_state(url) for url in cluster.urls] == [None] * 6
    assert max(cluster.node_ports) + BUS_PORT_OFFSET < 32768
    client = cluster_client(cluster.url)
    try:
        nodes = client.cluster_nodes()
    finally:
        client.close()
    masters = {info["node_id"] for info in nodes.values() if "master" in info["flags"]}
    replicas = [info for info in nodes.values() if "slave" in info["flags"]]
    assert len(masters) == 3 and len(replicas) == 3
    assert {info["master_id"] for info in replicas} == masters


def test_keys_spread_over_the_masters_and_read_from_any_node(
    cluster: RedisClusterService,
) -> None:
    writer = cluster_client(cluster.urls[0])
    reader = cluster_client(cluster.urls[-1])
    try:
        for number in range(KEYS):
            writer.set(f"page:{number}", f"body {number}".encode())
        assert [reader.get(f"page:{number}") for number in range(KEYS)] == [
            f"body {number}".encode() for number in range(KEYS)
        ]
        # Each master holds a share of them, not all.
        held = []
        for url in cluster.urls:
            node = redis_client(url)
            try:
                if node.info("replication")["role"] == "master":
                    held.append(node.dbsize())
            finally:
                node.close()
        assert len(held) == 3 and sum(held) == KEYS and 0 not in held
    finally:
        writer.close()
        reader.close()
