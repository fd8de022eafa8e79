"""The upstream rung's call: a GET of ``$LAYERBENCH_UPSTREAM_URL`` (the delaying server's URL
with the run's delay in it; see :mod:`layerbench.services.delaying_server`), over a connection
each thread keeps alive, as a handler keeps its database connection. The bare application's
handler and the WSGI frameworks' views call it; the ASGI applications make the same GET with
an async client of their own."""

import http.client
import os
from urllib.parse import urlsplit

from layerbench.errors import ConfigError
from layerbench_sites.app.app_config import SERVICE_URL_VARIABLES
from layerbench_sites.app.per_thread import PerThread

UPSTREAM_URL_VARIABLE = SERVICE_URL_VARIABLES["upstream"]
# A delay is at most 10 s: a call that takes longer has lost its server.
TIMEOUT_S = 30.0


class UpstreamError(Exception):
    """The upstream server answered something other than its answer."""


class UpstreamClient:
    def __init__(self, url: str) -> None:
        parts = urlsplit(url)
        if parts.scheme != "http" or not parts.hostname or parts.port is None:
            raise ConfigError(f"{UPSTREAM_URL_VARIABLE}={url}: not http://HOST:PORT/PATH")
        host, port = parts.hostname, parts.port
        self.url = url
        self._path = parts.path or "/"
        self._connections = PerThread(
            lambda: http.client.HTTPConnection(host, port, timeout=TIMEOUT_S)
        )

    @classmethod
    def from_env(cls) -> "UpstreamClient | None":
        url = os.environ.get(UPSTREAM_URL_VARIABLE)
        return cls(url) if url else None

    def get(self) -> bytes:
        """The upstream's answer. A kept-alive connection the server has closed meanwhile is
        opened again, once."""
        connection = self._connections.get()
        try:
            return self._get(connection)
        except (ConnectionError, http.client.HTTPException):
            connection.close()
            return self._get(connection)

    def _get(self, connection: http.client.HTTPConnection) -> bytes:
        connection.request("GET", self._path)
        response = connection.getresponse()
        body = response.read()
        if response.status != http.client.OK:
            raise UpstreamError(f"{self.url} answered {response.status}: {body[:80]!r}")
        return body
