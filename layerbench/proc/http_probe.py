"""One plain HTTP request over loopback, for readiness probes and response verification: the
instrument's HTTP client (:mod:`~layerbench.proc.http_client`) used once and closed."""

from urllib.parse import urlsplit

from layerbench.proc.http_client import HttpClient, HttpResponse


def http_get(url: str, timeout_s: float = 2.0) -> HttpResponse:
    """GET ``url``; raises OSError (or http.client.HTTPException) when there is no answer."""
    return http_request(url, timeout_s=timeout_s)


def http_request(
    url: str,
    *,
    method: str = "GET",
    body: bytes | None = None,
    content_type: str | None = None,
    timeout_s: float = 2.0,
) -> HttpResponse:
    """One request on a connection of its own; raises OSError (or http.client.HTTPException)
    when there is no answer."""
    parts = urlsplit(url)
    path = parts.path or "/"
    headers = {"Content-Type": content_type} if content_type else {}
    with HttpClient.for_url(url, timeout_s=timeout_s) as client:
        return client.request(
            method, f"{path}?{parts.query}" if parts.query else path, body, headers
        )
