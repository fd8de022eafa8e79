"""A throwaway memcached on a loopback port (no UDP), 64 MiB of memory; and the URLs that name
one server (``memcached://HOST:PORT``) or a pool of them
(``memcached://HOST1:PORT1,HOST2:PORT2,…``, :mod:`~layerbench.services.memcached_pool`)."""

from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from layerbench.errors import ConfigError, LayerbenchError
from layerbench.services.service import ManagedService
from layerbench.services.urls import ServiceUrl

if TYPE_CHECKING:  # pymemcache is the databases extra's, imported where used
    from pymemcache.client.base import Client

MEMORY_MIB = 64
SCHEME = "memcached"


class MemcachedService(ManagedService):
    name = "memcached"
    apt_package = "memcached"
    port_taken_marker = "failed to listen"

    def programs(self) -> dict[str, str]:
        return {"memcached": "memcached"}

    def command(self, directory: Path, port: int) -> list[str]:
        return self.server_command(self.host, port)

    def server_command(self, host: str, port: int) -> list[str]:
        command = [
            str(self.find("memcached")),
            "--listen",
            host,
            "--port",
            str(port),
            "--udp-port",
            "0",
            "--memory-limit",
            str(MEMORY_MIB),
            "--threads",
            "2",
        ]
        if self.run_as is not None:
            command += ["--user", self.run_as.name]
        return command

    def url_for(self, port: int) -> str:
        return f"{SCHEME}://{self.host}:{port}"

    def probe(self, url: str) -> None:
        probe_memcached(url)


def memcached_nodes(url: str) -> list[tuple[str, int]]:
    """The servers ``url`` names, in its order: ``memcached://HOST:PORT`` one, a pool's
    ``memcached://HOST1:PORT1,HOST2:PORT2,…`` each. A mistake is a ConfigError of one line."""
    parts = urlsplit(url)
    if parts.scheme != SCHEME:
        raise ConfigError(f"{url!r} is not a memcached URL (memcached://HOST:PORT[,HOST:PORT…])")
    if parts.path.strip("/") or parts.query or parts.fragment:
        raise ConfigError(f"{url!r}: a memcached URL is memcached://HOST:PORT[,HOST:PORT…] alone")
    nodes = []
    for node in parts.netloc.split(","):
        if not node or "@" in node:
            raise ConfigError(f"{url!r}: a node is HOST:PORT, not {node!r}")
        try:
            parsed = ServiceUrl.parse(f"{SCHEME}://{node}")
        except ConfigError:
            raise ConfigError(
                f"{url!r}: a node is HOST:PORT with a port from 1 to 65535, not {node!r}"
            ) from None
        nodes.append((parsed.host, parsed.port))
    if len(set(nodes)) != len(nodes):
        raise ConfigError(f"{url!r} names a node twice")
    return nodes


def node_url(host: str, port: int) -> str:
    return f"{SCHEME}://{host}:{port}"


def memcached_client(url: str, timeout_s: float = 2.0) -> "Client":
    from pymemcache.client.base import Client

    parsed = ServiceUrl.parse(url)
    return Client((parsed.host, parsed.port), connect_timeout=timeout_s, timeout=timeout_s)


def probe_memcached(url: str) -> None:
    """Raise when the server ``url`` names, or any server of the pool it names, does not
    answer."""
    from pymemcache.exceptions import MemcacheError

    for host, port in memcached_nodes(url):
        client = memcached_client(node_url(host, port))
        try:
            client.version()
        except (OSError, MemcacheError) as error:
            raise LayerbenchError(
                f"memcached at {node_url(host, port)} does not answer: {error}"
            ) from None
        finally:
            client.close()
