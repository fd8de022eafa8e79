"""A throwaway memcached on a loopback port (no UDP), 64 MiB of memory."""

from pathlib import Path

from pymemcache.client.base import Client
from pymemcache.exceptions import MemcacheError

from layerbench.errors import LayerbenchError
from layerbench.services.service import ManagedService
from layerbench.services.urls import ServiceUrl

MEMORY_MIB = 64


class MemcachedService(ManagedService):
    name = "memcached"
    apt_package = "memcached"
    port_taken_marker = "failed to listen"

    def programs(self) -> dict[str, str]:
        return {"memcached": "memcached"}

    def command(self, directory: Path, port: int) -> list[str]:
        command = [
            str(self.find("memcached")),
            "--listen",
            self.host,
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
        return f"memcached://{self.host}:{port}"

    def probe(self, url: str) -> None:
        probe_memcached(url)


def memcached_client(url: str, timeout_s: float = 2.0) -> Client:
    parsed = ServiceUrl.parse(url)
    return Client((parsed.host, parsed.port), connect_timeout=timeout_s, timeout=timeout_s)


def probe_memcached(url: str) -> None:
    client = memcached_client(url)
    try:
        client.version()
    except (OSError, MemcacheError) as error:
        raise LayerbenchError(f"memcached at {url} does not answer: {error}") from None
    finally:
        client.close()
