"""The ASGI sites' upstream call: a GET of the delaying server's URL (the run's delay in its
path; :mod:`layerbench.services.delaying_server`) on asyncio's streams, awaited, so that the
event loop serves other requests meanwhile. The async twin of the WSGI sites'
:class:`layerbench_sites.app.upstream_client.UpstreamClient` (``http.client``, a connection kept
alive per thread): HTTP/1.1, connections kept alive in a pool of idle ones, one per request in
flight at most; a pooled connection the server has closed meanwhile is opened again, once.
Connections belong to the event loop that opened them (a server's worker has one)."""

import asyncio
from urllib.parse import urlsplit

from layerbench.errors import ConfigError

# A delay is at most 10 s: a call that takes longer has lost its server.
TIMEOUT_S = 30.0
MAX_HEAD_BYTES = 8192

Connection = tuple[asyncio.StreamReader, asyncio.StreamWriter]


class AsyncUpstreamError(Exception):
    """The upstream server answered something other than its answer."""


class StaleConnectionError(Exception):
    """A kept-alive connection the server had closed."""


class AsyncUpstreamClient:
    def __init__(self, url: str) -> None:
        parts = urlsplit(url)
        if parts.scheme != "http" or not parts.hostname or parts.port is None:
            raise ConfigError(f"the upstream URL {url}: not http://HOST:PORT/PATH")
        self.url = url
        self.host = parts.hostname
        self.port = parts.port
        self.request = f"GET {parts.path or '/'} HTTP/1.1\r\nHost: {parts.netloc}\r\n\r\n".encode()
        self.idle: list[Connection] = []

    async def get(self) -> bytes:
        """The upstream's answer."""
        async with asyncio.timeout(TIMEOUT_S):
            if self.idle:
                connection = self.idle.pop()
                try:
                    return await self._get(connection)
                except StaleConnectionError:
                    pass
            return await self._get(await self._open())

    async def _open(self) -> Connection:
        return await asyncio.open_connection(self.host, self.port, limit=MAX_HEAD_BYTES * 2)

    async def _get(self, connection: Connection) -> bytes:
        reader, writer = connection
        try:
            writer.write(self.request)
            await writer.drain()
            try:
                head = await reader.readuntil(b"\r\n\r\n")
            except asyncio.IncompleteReadError as error:
                if error.partial:
                    raise
                raise StaleConnectionError from None
            status, headers = parse_head(head)
            body = await reader.readexactly(int(headers.get("content-length", "0")))
        except (ConnectionError, StaleConnectionError):
            writer.close()
            raise StaleConnectionError from None
        except BaseException:
            writer.close()
            raise
        if headers.get("connection", "").lower() == "close":
            writer.close()
        else:
            self.idle.append(connection)
        if status != 200:
            raise AsyncUpstreamError(f"{self.url} answered {status}: {body[:80]!r}")
        return body


def parse_head(head: bytes) -> tuple[int, dict[str, str]]:
    """The status and the headers (names in lower case) of a response's head."""
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split(" ", 2)[1])
    headers = {
        name.strip().lower(): value.strip()
        for name, _, value in (line.partition(":") for line in lines[1:] if line)
    }
    return status, headers
