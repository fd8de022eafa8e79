"""One plain HTTP request over loopback, for readiness probes and response verification."""

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
    return http_request(url, timeout_s=timeout_s)


def http_request(
    url: str,
    *,
    method: str = "GET",
    body: bytes | None = None,
    content_type: str | None = None,
    timeout_s: float = 2.0,
) -> ProbeResponse:
    """One request; raises OSError (or http.client.HTTPException) when there is no answer."""
    parts = urlsplit(url)
    connection = http.client.HTTPConnection(parts.hostname or "", parts.port, timeout=timeout_s)
    headers = {"Content-Type": content_type} if content_type else {}
    try:
        path = parts.path or "/"
        connection.request(method, f"{path}?{parts.query}" if parts.query else path, body, headers)
        response = connection.getresponse()
        return ProbeResponse(response.status, dict(response.getheaders()), response.read())
    finally:
        connection.close()
