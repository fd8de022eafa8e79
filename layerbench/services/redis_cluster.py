"""A throwaway Redis Cluster: six redis-server nodes on loopback in cluster mode, made into three
masters with a replica each by ``redis-cli --cluster create --cluster-replicas 1`` (issue 26).

Each node's cluster bus listens on its port + 10000; both are below the ephemeral range
(:func:`~layerbench.proc.ports.free_low_ports` with a companion of 10000). Node 1 is the
service's own process; nodes 2 to 6 run in ``node2`` … ``node6`` inside its directory. It is
handed out once every node says ``cluster_state:ok`` and knows all six with every slot assigned.
Its URLs are the six nodes' ``redis://`` URLs (``urls``); a cluster client starts from any, and
the site takes one as ``redis-cluster://HOST:PORT`` (``--cache``)."""

from pathlib import Path
from typing import TYPE_CHECKING

from layerbench.errors import LayerbenchError
from layerbench.proc.ports import free_low_ports
from layerbench.services.redis import RedisService, redis_client
from layerbench.services.service import PROBE_INTERVAL_S
from layerbench.services.urls import ServiceUrl

if TYPE_CHECKING:  # redis-py is the databases extra's, imported where used
    import redis

NODES = 6
BUS_PORT_OFFSET = 10000
SLOTS = 16384


class RedisClusterService(RedisService):
    name = "redis-cluster"

    def __init__(self, **arguments: object) -> None:
        super().__init__(**arguments)  # type: ignore[arg-type]
        self.node_ports: list[int] = []

    def programs(self) -> dict[str, str]:
        return {**super().programs(), "redis-cli": "redis-cli"}

    def choose_port(self) -> int:
        self.node_ports = free_low_ports(NODES, self.host, companion=BUS_PORT_OFFSET)
        return self.node_ports[0]

    def command(self, directory: Path, port: int) -> list[str]:
        return self.node_command(1)

    def node_command(self, number: int) -> list[str]:
        return [
            *super().command(self.node_directory(number), self.node_ports[number - 1]),
            "--cluster-enabled",
            "yes",
            "--cluster-config-file",
            f"nodes-{number}.conf",
            "--cluster-node-timeout",
            "2000",
        ]

    @property
    def urls(self) -> tuple[str, ...]:
        if not self.started:
            raise RuntimeError(f"{self.name} was not started")
        return tuple(self.url_for(port) for port in self.node_ports)

    def after_ready(self, url: str) -> None:
        for number in range(2, NODES + 1):
            self.start_node(number, self.node_command(number), self.answers(self.urls[number - 1]))
        assert self.directory is not None
        self.run_setup(
            [
                str(self.find("redis-cli")),
                "--cluster",
                "create",
                *(f"{self.host}:{port}" for port in self.node_ports),
                "--cluster-replicas",
                "1",
                "--cluster-yes",
            ],
            self.directory,
        )
        self.wait_ready(
            self.process,
            lambda: next(filter(None, map(cluster_state, self.urls)), None),
            interval_s=PROBE_INTERVAL_S * 10,
        )


def cluster_info(url: str) -> dict[str, str]:
    """The node's ``CLUSTER INFO`` fields."""
    client = redis_client(url)
    try:
        answer = client.execute_command("CLUSTER INFO")  # type: ignore[no-untyped-call]
    finally:
        client.close()
    if isinstance(answer, dict):
        return {str(key): str(value) for key, value in answer.items()}
    text = answer.decode() if isinstance(answer, bytes) else str(answer)
    return dict(line.split(":", 1) for line in text.split() if ":" in line)


def replicas_seen(url: str) -> int:
    """How many replicas the node at ``url`` knows of (``CLUSTER NODES``' "slave" flags)."""
    client = redis_client(url)
    try:
        answer = client.execute_command("CLUSTER NODES")  # type: ignore[no-untyped-call]
    finally:
        client.close()
    if isinstance(answer, dict):  # redis-py's parse: address -> {"flags": "slave", ...}
        return sum("slave" in str(node.get("flags", "")) for node in answer.values())
    text = answer.decode() if isinstance(answer, bytes) else str(answer)
    return sum("slave" in line.split()[2] for line in text.splitlines() if len(line.split()) > 2)


def cluster_state(url: str, nodes: int = NODES) -> str | None:
    """None when the node at ``url`` says the cluster is ok, knows ``nodes`` nodes (any number
    for 0) with half of them replicas, and every slot is assigned; otherwise why not. (Right
    after ``--cluster create`` a node may still see a replica as a master: a fresh-clone CI run
    found 6 masters.)"""
    import redis

    try:
        info = cluster_info(url)
        replicas = replicas_seen(url) if nodes else 0
    except redis.RedisError as error:
        return f"{url} does not answer: {error}"
    seen = (info.get("cluster_state"), info.get("cluster_known_nodes"))
    slots = info.get("cluster_slots_assigned")
    wanted = ("ok", str(nodes) if nodes else seen[1])
    if seen != wanted or slots != str(SLOTS) or replicas != nodes // 2:
        return (
            f"{url}: cluster_state {seen[0]}, {seen[1]} nodes known, {slots} slots assigned, "
            f"{replicas} replicas"
        )
    return None


def cluster_client(url: str, timeout_s: float = 2.0) -> "redis.RedisCluster":
    """A cluster client starting from the node at ``url`` (it learns the others)."""
    import redis

    parsed = ServiceUrl.parse(url)
    return redis.RedisCluster(
        host=parsed.host,
        port=parsed.port,
        socket_timeout=timeout_s,
        socket_connect_timeout=timeout_s,
    )


def probe_redis_cluster(url: str) -> None:
    """Raise when the node at ``url`` (``redis-cluster://`` or ``redis://``) does not say its
    cluster is ok."""
    parsed = ServiceUrl.parse(url)
    reason = cluster_state(f"redis://{parsed.host}:{parsed.port}/0", nodes=0)
    if reason is not None:
        raise LayerbenchError(f"Redis Cluster: {reason}")
