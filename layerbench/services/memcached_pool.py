"""A throwaway memcached pool (issue 26): several memcached servers that know nothing of each
other, each key kept on one of them by the client's hashing (the page cache's: rendezvous
hashing, :mod:`~layerbench_sites.app.cache_memcached`). Node N may run on a host of the lab's
network
(``placements``); by default all run on loopback.

Its URL names every node, ``memcached://HOST1:PORT1,HOST2:PORT2,…`` (what ``--cache`` takes);
``urls`` are the nodes' own ``memcached://HOST:PORT``, in node order."""

from collections.abc import Sequence
from pathlib import Path

from layerbench.proc.ports import free_low_ports
from layerbench.services.memcached import MemcachedService, node_url
from layerbench.services.placed_nodes import PlacedNodes, Placement
from layerbench.services.service import START_TIMEOUT_S

NODES = 3


class MemcachedPoolService(PlacedNodes, MemcachedService):
    name = "memcached-pool"

    def __init__(
        self,
        *,
        placements: Sequence[Placement] | None = None,
        nodes: int = NODES,
        cpus: frozenset[int] | None = None,
        start_timeout_s: float = START_TIMEOUT_S,
    ) -> None:
        super().__init__(cpus=cpus, start_timeout_s=start_timeout_s)
        self.place(placements, len(placements) if placements is not None else nodes)
        self.node_ports: list[int] = []

    def choose_port(self) -> int:
        self.node_ports = free_low_ports(len(self.placements))
        return self.node_ports[0]

    def command(self, directory: Path, port: int) -> list[str]:
        return self.server_command(self.address(1), port)

    @property
    def urls(self) -> tuple[str, ...]:
        if not self.started:
            raise RuntimeError(f"{self.name} was not started")
        return tuple(
            node_url(self.address(number), port) for number, port in enumerate(self.node_ports, 1)
        )

    @property
    def url(self) -> str:
        """Every node's HOST:PORT in one memcached:// URL."""
        return "memcached://" + ",".join(url.removeprefix("memcached://") for url in self.urls)

    def after_ready(self, url: str) -> None:
        for number in range(2, len(self.placements) + 1):
            with self.on_node(number):
                command = self.server_command(self.address(number), self.node_ports[number - 1])
                self.start_node(number, command, self.answers(self.urls[number - 1]))
