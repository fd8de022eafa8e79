"""One plain HTTP GET over loopback, for readiness probes and response verification."""

import http.client
from dataclasses import dataclass
from urllib.parse import urlsplit


@dataclass(frozen=True)
class ProbeResponse:
    status: int
    headers: dict[str, str]
    body: bytes


def http_get(url: str, timeout_s: float = 2.0) -> ProbeResponse:
    """GET ``url``; raises OSError (or http.client.HTTPException) when there is no answer."""
    parts = urlsplit(url)
    connection = http.client.HTTPConnection(parts.hostname or "", parts.port, timeout=timeout_s)
    try:
        connection.request("GET", parts.path or "/")
        response = connection.getresponse()
        return ProbeResponse(response.status, dict(response.getheaders()), response.read())
    finally:
        connection.close()
