"""A deployment's readiness probed from where its requests come from (on a topology: the load's
client host, or the balancer's front host), so that a server the requests cannot reach does not
start. The server the requests reach first is probed there: a front before its server (nginx
reaches uWSGI over a Unix socket, from its own host), else the server itself."""

from layerbench.servers.deployment import Deployment, FrontedServer
from layerbench.servers.managed_server import ManagedServer, ProbeSite


def probe_from(deployment: Deployment, site: ProbeSite) -> None:
    """``deployment``'s first server probed from ``site`` as it starts."""
    first = deployment.front if isinstance(deployment, FrontedServer) else deployment
    if isinstance(first, ManagedServer):
        first.probed_from = site
