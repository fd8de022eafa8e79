"""The instrument's one HTTP client: a kept-alive HTTP/1.1 connection to one server, over
http.client (the standard library: the core install has no HTTP package).

A request that finds its kept-alive connection closed by the server (a server closes an idle one
after its keep-alive timeout: 6 s under Node 20) is sent again, once, on a new connection; a
request on a new connection is never repeated, and any other failure is raised. A one-shot
request (:mod:`~layerbench.proc.http_probe`, the readiness probes and verification) is this
client used for one request and closed.

The measured sites have a client of their own (``layerbench_sites/app/upstream_client.py``: a
connection per request thread, part of what the upstream rung measures)."""

import http.client
from dataclasses import dataclass
from types import TracebackType
from typing import Self
from urllib.parse import urlsplit

# What a server's close of an idle kept-alive connection looks like to the next request on it.
CLOSED_CONNECTION = (http.client.RemoteDisconnected, BrokenPipeError, ConnectionResetError)


@dataclass(frozen=True)
class HttpResponse:
    status: int
    headers: dict[str, str]
    body: bytes


class HttpClient:
    """Requests to ``host:port`` over one kept-alive connection, opened when first needed;
    ``headers`` go with every request. Use as a context manager, or :meth:`close` it."""

    def __init__(
        self, host: str, port: int, *, timeout_s: float, headers: dict[str, str] | None = None
    ) -> None:
        self.host = host
        self.port = port
        self._timeout_s = timeout_s
        self._headers = dict(headers or {})
        self._connection: http.client.HTTPConnection | None = None

    @classmethod
    def for_url(cls, url: str, *, timeout_s: float) -> "HttpClient":
        """A client for the server of ``url`` (``http://HOST[:PORT]/…``; port 80 by default)."""
        parts = urlsplit(url)
        return cls(parts.hostname or "", parts.port or http.client.HTTP_PORT, timeout_s=timeout_s)

    def request(
        self,
        method: str,
        path: str,
        body: bytes | None = None,
        headers: dict[str, str] | None = None,
    ) -> HttpResponse:
        """``method path``; raises OSError (or http.client.HTTPException) when there is no
        answer, after one more try on a new connection when the kept-alive one was closed."""
        reused = self._connection is not None
        try:
            return self._exchange(method, path, body, headers)
        except CLOSED_CONNECTION:
            if not reused:
                raise
            return self._exchange(method, path, body, headers)

    def _exchange(
        self, method: str, path: str, body: bytes | None, headers: dict[str, str] | None
    ) -> HttpResponse:
        if self._connection is None:
            self._connection = http.client.HTTPConnection(
                self.host, self.port, timeout=self._timeout_s
            )
        try:
            self._connection.request(method, path, body, {**self._headers, **(headers or {})})
            response = self._connection.getresponse()
            data = response.read()
        except BaseException:
            self.close()
            raise
        if response.will_close:
            self.close()
        return HttpResponse(response.status, dict(response.getheaders()), data)

    def close(self) -> None:
        if self._connection is not None:
            self._connection.close()
            self._connection = None

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()
