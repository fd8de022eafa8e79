"""A kept-alive HTTP client for CouchDB's API (``http://HOST:PORT``): one connection, JSON in
and out. A request that finds its kept-alive connection closed by the server (Node closes an
idle one after its keep-alive timeout: 6 s under Node 20) is sent again once on a new
connection; any other failure is raised."""

import base64
import http.client
import json
from typing import Any
from urllib.parse import urlsplit

from layerbench.errors import ConfigError

# What a server's close of an idle kept-alive connection looks like to the next request on it.
CLOSED_CONNECTION = (http.client.RemoteDisconnected, BrokenPipeError, ConnectionResetError)
JSON_HEADERS = {"Content-Type": "application/json", "Accept": "application/json"}


class CouchdbClient:
    def __init__(self, url: str, timeout_s: float = 5.0) -> None:
        parts = urlsplit(url)
        if parts.scheme != "http" or not parts.hostname:
            raise ConfigError(f"{url!r} is not a CouchDB URL (http://HOST:PORT)")
        self.url = url
        self._host = parts.hostname
        self._port = parts.port or 5984
        self._timeout_s = timeout_s
        self._headers = dict(JSON_HEADERS)
        if parts.username is not None:
            credentials = f"{parts.username}:{parts.password or ''}".encode()
            self._headers["Authorization"] = "Basic " + base64.b64encode(credentials).decode()
        self._connection: http.client.HTTPConnection | None = None

    def request(self, method: str, path: str, document: Any = None) -> tuple[int, Any]:
        """``method path`` with ``document`` as its JSON body → (status, the answer's JSON)."""
        body = None if document is None else json.dumps(document).encode()
        reused = self._connection is not None
        try:
            return self._exchange(method, path, body)
        except CLOSED_CONNECTION:
            self.close()
            if not reused:
                raise
            return self._exchange(method, path, body)

    def get_raw(self, path: str) -> tuple[int, bytes]:
        """A GET's status and body, unparsed (the rung parses it itself)."""
        reused = self._connection is not None
        try:
            return self._send("GET", path, None)
        except CLOSED_CONNECTION:
            self.close()
            if not reused:
                raise
            return self._send("GET", path, None)

    def _exchange(self, method: str, path: str, body: bytes | None) -> tuple[int, Any]:
        status, data = self._send(method, path, body)
        return status, json.loads(data) if data else None

    def _send(self, method: str, path: str, body: bytes | None) -> tuple[int, bytes]:
        if self._connection is None:
            self._connection = http.client.HTTPConnection(
                self._host, self._port, timeout=self._timeout_s
            )
        try:
            self._connection.request(method, path, body=body, headers=self._headers)
            response = self._connection.getresponse()
            data = response.read()
        except BaseException:
            self.close()
            raise
        if response.will_close:
            self.close()
        return response.status, data

    def close(self) -> None:
        if self._connection is not None:
            self._connection.close()
            self._connection = None
