"""Where a process runs: this machine's loopback, or a host of the lab's network.

A placement is the two things a server, a service or a client needs to know about its host: the
network namespace to start it in (None: this machine's own) and the address it listens on and
the others reach it at. :func:`start_on` starts any backing service there; servers take the
address as their ``host`` and are started :func:`~layerbench.hosts.inside` the namespace.
"""

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Protocol, TypeVar

from layerbench.hosts.inside import inside
from layerbench.hosts.lab_network import LabNetwork
from layerbench.hosts.topology import Host
from layerbench.proc.ports import LOOPBACK


@dataclass(frozen=True)
class Placement:
    name: str  # the host's name in the topology ("local" for this machine)
    namespace: str | None
    address: str

    @contextmanager
    def entered(self) -> Iterator[None]:
        """This thread on the placement's host (see :mod:`layerbench.hosts.inside`)."""
        with inside(self.namespace):
            yield


LOCAL = Placement("local", None, LOOPBACK)


def placement_of(network: LabNetwork, host: Host | str) -> Placement:
    """``host`` of the lab's network as a placement."""
    found = network.topology.host(host if isinstance(host, str) else host.name)
    return Placement(found.name, network.namespace(found), str(found.address))


class Listening(Protocol):
    """What :func:`start_on` starts: a backing service (it listens on ``host``)."""

    host: str

    def start(self) -> object: ...


Service = TypeVar("Service", bound=Listening)


def start_on(service: Service, placement: Placement) -> Service:
    """``service`` started on ``placement``'s host, listening on its address (hosts/ knows no
    service: services/ may place their nodes with :class:`Placement`)."""
    service.host = placement.address
    with placement.entered():
        service.start()
    return service
