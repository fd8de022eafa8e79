"""A throwaway Redis on a loopback port: no snapshots, no append-only file, its working
directory the private one."""

from pathlib import Path
from typing import TYPE_CHECKING

from layerbench.errors import LayerbenchError
from layerbench.proc.ports import LOOPBACK
from layerbench.services.service import ManagedService
from layerbench.services.urls import ServiceUrl

if TYPE_CHECKING:  # redis-py is the databases extra's, imported where used
    import redis


class RedisService(ManagedService):
    name = "redis"
    apt_package = "redis-server"
    port_taken_marker = "Address already in use"

    def programs(self) -> dict[str, str]:
        return {"redis-server": "redis-server"}

    def command(self, directory: Path, port: int) -> list[str]:
        return [
            str(self.find("redis-server")),
            "--bind",
            self.host,
            "--port",
            str(port),
            "--dir",
            str(directory),
            "--save",
            "",
            "--appendonly",
            "no",
            "--daemonize",
            "no",
            # Without a password, protected mode answers loopback clients only: placed on a lab
            # host, listening on its address inside the lab's namespaces, the app host is
            # another address of the subnet.
            "--protected-mode",
            "yes" if self.host == LOOPBACK else "no",
            "--logfile",
            "",
        ]

    def url_for(self, port: int) -> str:
        return f"redis://{self.host}:{port}/0"

    def probe(self, url: str) -> None:
        probe_redis(url)


def redis_client(url: str, timeout_s: float = 2.0) -> "redis.Redis":
    """The one Redis client of layerbench (probes, seeding, the redis rung, the page cache):
    ``timeout_s`` to connect and for each answer, and one immediate retry on a new connection
    (a pooled connection the server closed), not redis-py's default of three with a jittered
    exponential backoff, which held every request of a site whose cache had gone for up to
    10 s before its error, and would hide a failing server inside a measured latency."""
    import redis
    from redis.backoff import NoBackoff
    from redis.retry import Retry

    parsed = ServiceUrl.parse(url)
    return redis.Redis(
        host=parsed.host,
        port=parsed.port,
        db=parsed.redis_db,
        password=parsed.password,
        socket_timeout=timeout_s,
        socket_connect_timeout=timeout_s,
        retry=Retry(NoBackoff(), 1),
    )


def probe_redis(url: str) -> None:
    import redis

    client = redis_client(url)
    try:
        client.ping()
    except redis.RedisError as error:
        raise LayerbenchError(f"Redis at {url} does not answer: {error}") from None
    finally:
        client.close()
