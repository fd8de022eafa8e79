"""CouchDB's API (``http://[USER:PASSWORD@]HOST:PORT``) over the instrument's kept-alive HTTP
client (:class:`~layerbench.proc.http_client.HttpClient`, whose one retry covers a connection
Node closed after its keep-alive timeout): JSON in and out, the URL's credentials as Basic
authentication."""

import base64
import json
from typing import Any
from urllib.parse import urlsplit

from layerbench.errors import ConfigError
from layerbench.proc.http_client import HttpClient

COUCHDB_PORT = 5984
JSON_HEADERS = {"Content-Type": "application/json", "Accept": "application/json"}


class CouchdbClient:
    def __init__(self, url: str, timeout_s: float = 5.0) -> None:
        parts = urlsplit(url)
        if parts.scheme != "http" or not parts.hostname:
            raise ConfigError(f"{url!r} is not a CouchDB URL (http://HOST:PORT)")
        self.url = url
        headers = dict(JSON_HEADERS)
        if parts.username is not None:
            credentials = f"{parts.username}:{parts.password or ''}".encode()
            headers["Authorization"] = "Basic " + base64.b64encode(credentials).decode()
        self._http = HttpClient(
            parts.hostname, parts.port or COUCHDB_PORT, timeout_s=timeout_s, headers=headers
        )

    def request(self, method: str, path: str, document: Any = None) -> tuple[int, Any]:
        """``method path`` with ``document`` as its JSON body → (status, the answer's JSON)."""
        body = None if document is None else json.dumps(document).encode()
        response = self._http.request(method, path, body)
        return response.status, json.loads(response.body) if response.body else None

    def get_raw(self, path: str) -> tuple[int, bytes]:
        """A GET's status and body, unparsed (the rung parses it itself)."""
        response = self._http.request("GET", path)
        return response.status, response.body

    def close(self) -> None:
        self._http.close()
