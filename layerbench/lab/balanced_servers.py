"""The server under test on several app hosts of a topology, behind nginx's balancer
(``least_conn``, :mod:`layerbench.servers.nginx_balancer`) on the front host: a deployment that
answers as one. Each app host runs the whole server (uWSGI's nginx too) in its own namespace;
the balancer, the clients' one address, runs on the front host. Started app hosts first (each
probed from the front host, the balancer's way to it; the balancer from :attr:`probed_from`),
stopped balancer first; any one's death is the deployment's."""

from contextlib import ExitStack

from layerbench.hosts.placement import Placement
from layerbench.lab.probed_from import probe_from
from layerbench.proc.start_stop import StartStop
from layerbench.roles import FRONT_ROLE
from layerbench.servers.deployment import Deployment
from layerbench.servers.managed_server import ProbeSite
from layerbench.servers.nginx_balancer import NginxBalancer


class BalancedServers(StartStop):
    name = "nginx-balancer"

    def __init__(
        self,
        servers: tuple[tuple[Placement, Deployment], ...],
        balancer: NginxBalancer,
        front: Placement,
    ) -> None:
        self.servers = servers
        self.balancer = balancer
        self.front = front
        # Where the balancer's readiness is probed from (None: the front host).
        self.probed_from: ProbeSite | None = None
        self._stack = ExitStack()

    @property
    def base_url(self) -> str:
        return self.balancer.base_url

    def versions(self) -> dict[str, str]:
        return {**self.servers[0][1].versions(), **self.balancer.versions()}

    def roles(self) -> dict[str, set[int]]:
        """Every app host's processes in their roles; the balancer a front."""
        roles: dict[str, set[int]] = {}
        for _, server in self.servers:
            for role, sessions in server.roles().items():
                roles.setdefault(role, set()).update(sessions)
        roles.setdefault(FRONT_ROLE, set()).add(self.balancer.session)
        return roles

    def check_alive(self) -> None:
        for _, server in self.servers:
            server.check_alive()
        self.balancer.check_alive()

    def start(self) -> "BalancedServers":
        with ExitStack() as stack:
            for placement, server in self.servers:
                probe_from(server, self.front)
                with placement.entered():
                    stack.enter_context(server)
            self.balancer.probed_from = self.probed_from
            with self.front.entered():
                stack.enter_context(self.balancer)
            self._stack = stack.pop_all()
        return self

    def stop(self) -> None:
        self._stack.close()
