"""The upstream rung's dependency as a throwaway service: the delaying server
(:mod:`layerbench.services.delaying_server`) on a loopback port, run by this Python, as the
other services are (its own process group, an unprivileged account when we are root).

Its URL is what a handler of the upstream rung GETs: the server's, with the run's delay in its
path (``--set upstream.ms=N``, 20 by default: ``http://127.0.0.1:PORT/delay/20``)."""

import http.client
import json
import sys
from pathlib import Path
from urllib.parse import urlsplit

from layerbench.errors import ConfigError, LayerbenchError
from layerbench.proc.http_probe import http_get
from layerbench.services.delaying_server import (
    DEFAULT_MAX_CONNECTIONS,
    DELAY_PREFIX,
    MAX_DELAY_MS,
    STATS_PATH,
)
from layerbench.services.service import START_TIMEOUT_S, ManagedService

DEFAULT_DELAY_MS = 20


class UpstreamService(ManagedService):
    name = "upstream"
    apt_package = "python3"

    def __init__(
        self,
        *,
        cpus: frozenset[int] | None = None,
        start_timeout_s: float = START_TIMEOUT_S,
        ms: int = DEFAULT_DELAY_MS,
        max_connections: int = DEFAULT_MAX_CONNECTIONS,
    ) -> None:
        super().__init__(cpus=cpus, start_timeout_s=start_timeout_s)
        if not 0 <= ms <= MAX_DELAY_MS:
            raise ConfigError(f"upstream.ms is 0 to {MAX_DELAY_MS:,} milliseconds, not {ms}")
        self.delay_ms = ms
        self.max_connections = max_connections

    def programs(self) -> dict[str, str]:
        return {"python3": sys.executable}

    def command(self, directory: Path, port: int) -> list[str]:
        return [
            sys.executable,
            "-m",
            "layerbench.services.delaying_server",
            "--port",
            str(port),
            "--max-connections",
            str(self.max_connections),
        ]

    def url_for(self, port: int) -> str:
        return delay_url(f"http://{self.host}:{port}", self.delay_ms)

    def probe(self, url: str) -> None:
        probe_upstream(url)


def delay_url(url: str, delay_ms: int) -> str:
    """The URL of an answer ``delay_ms`` after the request, from the server at ``url``."""
    return f"{server_of(url)}{DELAY_PREFIX}{delay_ms}"


def server_of(url: str) -> str:
    """http://HOST:PORT of any of the server's URLs."""
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}"


def upstream_stats(url: str) -> dict[str, int]:
    """The counters of the server at ``url`` (any of its URLs; see delaying_server)."""
    response = http_get(server_of(url) + STATS_PATH, timeout_s=2.0)
    if response.status != 200:
        raise LayerbenchError(f"the upstream server at {url} answers {response.status}")
    stats: dict[str, int] = json.loads(response.body)
    return stats


def probe_upstream(url: str) -> None:
    try:
        upstream_stats(url)
    except (OSError, http.client.HTTPException, ValueError) as error:
        raise LayerbenchError(f"the upstream server at {url} does not answer: {error}") from None
