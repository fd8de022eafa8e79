"""nginx on the front host balancing N application hosts: NginxFront's proxy (HTTP/1.1 to the
upstreams, connections kept alive, the same headers) with an upstream of every application
host, ``least_conn`` (a request goes to the host with the fewest active connections, round
robin among equals). Each answer says which host served it: ``X-Upstream: ADDRESS:PORT``.
Without ``next_upstream``, a request an application host failed (refused, reset, timed out) is
answered 502 instead of being sent to the next host: the client sees the failure (and re-tries
it, if it does)."""

from collections.abc import Sequence
from pathlib import Path

from layerbench.errors import ConfigError
from layerbench.proc.ports import LOOPBACK
from layerbench.servers.nginx_front import NginxFront

UPSTREAM_HEADER = "X-Upstream"


class NginxBalancer(NginxFront):
    name = "nginx-balancer"

    def __init__(
        self,
        workdir: Path,
        port: int,
        upstreams: Sequence[str],
        *,
        workers: int = 1,
        host: str = LOOPBACK,
        access_log: bool = False,
        next_upstream: bool = True,
    ) -> None:
        """``upstreams``: the application hosts' HOST:PORT, at least one."""
        if not upstreams:
            raise ConfigError("nginx's balancer needs at least one application host")
        super().__init__(
            workdir, port, upstreams[0], None, workers=workers, host=host, access_log=access_log
        )
        self.upstreams = tuple(upstreams)
        self.next_upstream = next_upstream

    def upstream_servers(self) -> str:
        servers = "".join(f"\n        server {upstream};" for upstream in self.upstreams)
        return f"\n        least_conn;{servers}"

    def server_directives(self) -> str:
        directives = f"\n        add_header {UPSTREAM_HEADER} $upstream_addr always;"
        if not self.next_upstream:
            directives += "\n        proxy_next_upstream off;"
        return directives
