"""The demo site on the cluster's hosts: gunicorn on every app host (app host i on Galera node
i, its page cache shared in memcached on the cache host or its own), nginx balancing them on
the front host; each process started inside its host's network (:mod:`layerbench.hosts.inside`)
and stopped, with its process group, on the way out."""

import secrets
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path

from layerbench.cluster.cluster_plan import ClusterPlan
from layerbench.hosts.lab_network import LabNetwork
from layerbench.hosts.placement import Placement, placement_of
from layerbench.rungs.sqlite_file import create_seeded_database
from layerbench.servers.gunicorn import GunicornServer, GunicornSettings
from layerbench.servers.managed_server import ManagedServer
from layerbench.servers.nginx_balancer import NginxBalancer
from layerbench.site_contract import CACHE_URL_VARIABLE, DATABASE_URL_VARIABLE, SECRET_VARIABLE
from layerbench.site_contract import LOCAL_CACHE as LOCAL

# Every host has its own network, so every app host and the front can use the same port.
APP_PORT = 8000
FRONT_PORT = 8080
APP_THREADS = 4


@dataclass(frozen=True)
class SiteHosts:
    """Where the running site answers: each app host's base URL (in the plan's order) and the
    front's."""

    apps: tuple[str, ...]
    front: str


def start_inside(server: ManagedServer, placement: Placement, stack: ExitStack) -> None:
    """``server`` started on ``placement``'s host, stopped when ``stack`` closes."""
    with placement.entered():
        stack.enter_context(server)


@contextmanager
def site_on_hosts(
    network: LabNetwork,
    plan: ClusterPlan,
    node_urls: list[str],
    cache_url: str | None,
    workdir: Path,
) -> Iterator[SiteHosts]:
    """The site on every app host (app host i on ``node_urls[i mod N]``, its page cache at
    ``cache_url``, or its own when None) and the balancer on the front, while inside."""
    secret = secrets.token_hex(32)
    upstreams = []
    with ExitStack() as stack:
        for number, host in enumerate(plan.apps):
            placement = placement_of(network, host)
            directory = workdir / host.name
            directory.mkdir(parents=True)
            server = GunicornServer(
                directory / "gunicorn",
                APP_PORT,
                create_seeded_database(directory),
                GunicornSettings(workers=1, worker_class="gthread", threads=APP_THREADS),
                host=placement.address,
                app_environment={
                    DATABASE_URL_VARIABLE: node_urls[number % len(node_urls)],
                    CACHE_URL_VARIABLE: cache_url or LOCAL,
                    SECRET_VARIABLE: secret,
                },
            )
            start_inside(server, placement, stack)
            upstreams.append(f"{placement.address}:{APP_PORT}")
        front = placement_of(network, plan.front)
        balancer = NginxBalancer(workdir / "nginx", FRONT_PORT, upstreams, host=front.address)
        start_inside(balancer, front, stack)
        yield SiteHosts(tuple(f"http://{upstream}" for upstream in upstreams), balancer.base_url)
