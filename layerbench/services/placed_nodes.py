"""A multi-node service whose nodes may each run on a host of the lab's network: node N is
started inside its placement's namespace and listens on the placement's address (all on this
machine's loopback by default). Node 1, the service's own process, is started from inside the
first placement, which also makes its address the service's ``host``; a subclass starts node N
(2 and up) :meth:`~PlacedNodes.on_node`."""

from collections.abc import Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager, nullcontext
from dataclasses import dataclass
from typing import Protocol, Self

from layerbench.errors import ConfigError
from layerbench.proc.ports import LOOPBACK
from layerbench.services.service import ManagedService


class Placement(Protocol):
    """Where a node runs: a :class:`layerbench.hosts.placement.Placement` (services do not
    import the hosts, which start services)."""

    @property
    def address(self) -> str: ...

    def entered(self) -> AbstractContextManager[None]: ...


@dataclass(frozen=True)
class ThisMachine:
    """This machine's loopback, where nodes run by default."""

    address: str = LOOPBACK

    def entered(self) -> AbstractContextManager[None]:
        return nullcontext()


LOCAL = ThisMachine()


class PlacedNodes(ManagedService):
    placements: tuple[Placement, ...] = ()

    def place(self, placements: Sequence[Placement] | None, nodes: int) -> None:
        """Node N on ``placements[N - 1]``; None: ``nodes`` nodes on loopback."""
        chosen = tuple(placements) if placements is not None else (LOCAL,) * nodes
        if len(chosen) != nodes or nodes < 1:
            raise ConfigError(f"{self.name}: {nodes} nodes, {len(chosen)} placements")
        self.placements = chosen

    def address(self, number: int) -> str:
        """Where node ``number`` listens."""
        return self.placements[number - 1].address

    @contextmanager
    def on_node(self, number: int) -> Iterator[None]:
        """This thread on node ``number``'s host."""
        with self.placements[number - 1].entered():
            yield

    def start(self) -> Self:
        self.host = self.address(1)
        with self.on_node(1):
            super().start()
        return self
