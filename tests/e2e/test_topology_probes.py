"""On a topology the server under test is probed from where its requests come from, as root on
real namespaces: its readiness from the first client host (the load's path), each app host's
server behind the balancer from the front host (the balancer's). A server that answers on its
own host but not from the client does not start (seen passing before: readiness came from the
app host)."""

import re
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from layerbench.errors import ServerStartError
from layerbench.hosts.lab_network import lab_network
from layerbench.hosts.placement import Placement
from layerbench.hosts.topology import read_topology
from layerbench.lab.topology_run import Placements, placements_on
from layerbench.proc.ports import LOOPBACK, free_port
from layerbench.servers.deployment import Deployment
from layerbench.servers.managed_server import ManagedServer
from tests.e2e.test_hosts import can_make_namespaces  # noqa: F401 (a fixture)

CLIENT_APP = '[hosts.client1]\nroles = ["client"]\n[hosts.app1]\nroles = ["app"]\n'
BALANCED = CLIENT_APP + '[hosts.front1]\nroles = ["front"]\n[hosts.app2]\nroles = ["app"]\n'


class AddressLoggingServer(ManagedServer):
    """Python's http.server bound to ``bind``, serving its work directory: its log names each
    request's client address."""

    name = "http.server"

    def __init__(self, workdir: Path, bind: str, start_timeout_s: float = 10.0) -> None:
        super().__init__(workdir, free_port(), host=bind, start_timeout_s=start_timeout_s)

    def version(self) -> str:
        return "1"

    def prepare(self) -> None:
        (self.workdir / "health").write_text("ok")  # what a front before it probes

    def command(self) -> list[str]:
        return [
            sys.executable, "-m", "http.server", "--bind", self.host, "--directory",
            str(self.workdir), str(self.port),
        ]  # fmt: skip

    def clients(self) -> set[str]:
        """The address of every request's client, from the log."""
        return set(re.findall(r"^(\S+) - - \[", self.log_path.read_text(), re.MULTILINE))


@pytest.fixture
def placements(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Placements]:
    path = tmp_path / "topology.toml"
    path.write_text(request.param)
    with lab_network(read_topology(path)) as network:
        yield placements_on(network, ())


@pytest.mark.parametrize("placements", [CLIENT_APP], indirect=True, ids=["client-app"])
@pytest.mark.usefixtures("can_make_namespaces")
def test_the_server_is_probed_from_the_client_host(placements: Placements, tmp_path: Path) -> None:
    server = AddressLoggingServer(tmp_path / "server", placements.app.address)
    with placements.started(server):
        assert server.clients() == {placements.probe.address}


@pytest.mark.parametrize("placements", [CLIENT_APP], indirect=True, ids=["client-app"])
@pytest.mark.usefixtures("can_make_namespaces")
def test_a_server_the_client_cannot_reach_does_not_start(
    placements: Placements, tmp_path: Path
) -> None:
    # On the app host's own loopback: it answers there, and not from the client host.
    server = AddressLoggingServer(tmp_path / "server", LOOPBACK, start_timeout_s=1.0)
    with pytest.raises(ServerStartError) as raised, placements.started(server):
        pass
    assert f"from client1: http://{LOOPBACK}:{server.port}/" in str(raised.value)


@pytest.mark.parametrize("placements", [BALANCED], indirect=True, ids=["two-apps"])
@pytest.mark.usefixtures("can_make_namespaces", "nginx_binary")
def test_app_hosts_behind_the_balancer_are_probed_from_the_front_host(
    placements: Placements, tmp_path: Path
) -> None:
    servers: list[AddressLoggingServer] = []

    def build(where: Placement, host_name: str) -> Deployment:
        servers.append(AddressLoggingServer(tmp_path / host_name, where.address))
        return servers[-1]

    with placements.started(placements.deployment(build, tmp_path)):
        assert [server.clients() for server in servers] == [{placements.front.address}] * 2
