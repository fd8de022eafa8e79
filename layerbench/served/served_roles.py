"""Which role each process of a deployment plays while it is counted: ``front`` (nginx in front
of the server), ``server`` (the process that started the server, and those that hand requests on:
uWSGI's HTTP router, Apache's children before a mod_wsgi daemon) or ``application`` (a worker that
runs the application). The deployment says which server is in front, or the server itself, of
its own processes (Apache before Passenger's core); the adapter's declaration
(:mod:`layerbench.served.served_counting`) which of the server's processes run the
application."""

from collections.abc import Callable
from dataclasses import dataclass

from layerbench.proc.sessions import members, sessions_below
from layerbench.roles import FRONT_ROLE, SERVER_ROLE
from layerbench.served.counted_launch import servers_of
from layerbench.servers.deployment import Deployment
from layerbench.servers.managed_server import ManagedServer

APPLICATION_ROLE = "application"
ROLE_ORDER = (FRONT_ROLE, SERVER_ROLE, APPLICATION_ROLE)
# Whether a process of a server (the one that started it too) runs the application.
WorkerTest = Callable[[ManagedServer, int], bool]


@dataclass(frozen=True)
class CountedProcesses:
    # Every process counted, with its role.
    roles: dict[int, str]

    def pids(self, role: str | None = None) -> list[int]:
        return sorted(pid for pid, each in self.roles.items() if role is None or each == role)

    def present_roles(self) -> list[str]:
        return [role for role in ROLE_ORDER if role in self.roles.values()]


def process_roles(deployment: Deployment, runs_application: WorkerTest) -> CountedProcesses:
    """The deployment's processes now, each with its role."""
    roles: dict[int, str] = {}
    for role, server in servers_of(deployment):
        leader = server.session
        # A server in front of its own core declares it (Apache before Passenger's core).
        in_front = set(members(server.roles().get(FRONT_ROLE, set())))
        # Its session, and those its processes started (Passenger's watchdog starts one).
        for pid in members({leader, *sessions_below(leader)}):
            if role == FRONT_ROLE or pid in in_front:
                roles[pid] = FRONT_ROLE
            elif runs_application(server, pid):
                roles[pid] = APPLICATION_ROLE
            else:
                roles[pid] = SERVER_ROLE
    return CountedProcesses(roles)
