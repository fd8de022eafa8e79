"""The application under a real WSGI server for the tests: wsgiref's, one thread a request,
with every call checked by ``wsgiref.validate.validator``; and a small JSON client."""

import http.client
import json
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from socketserver import ThreadingMixIn
from typing import Any
from wsgiref.simple_server import WSGIRequestHandler, WSGIServer, make_server
from wsgiref.validate import validator

from layerbench.rungs.sqlite_file import create_seeded_database
from layerbench_sites.app.api.page_cache import PageCache
from layerbench_sites.app.app_config import AppConfig
from layerbench_sites.app.cache import CacheBackend, LocalCache
from layerbench_sites.app.wsgi import create_app
from layerbench_sites.datalayer.open_repository import prepare
from tests.datalayer_backends import empty_mariadb_database, empty_postgres_database


class ThreadingWSGIServer(ThreadingMixIn, WSGIServer):
    daemon_threads = True


class QuietHandler(WSGIRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        return


@dataclass
class Reply:
    status: int
    headers: dict[str, str]
    body: bytes

    def json(self) -> Any:
        return json.loads(self.body)


@dataclass
class Client:
    port: int

    def request(
        self,
        method: str,
        path: str,
        body: Any = None,
        headers: dict[str, str] | None = None,
        raw: bytes | None = None,
    ) -> Reply:
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        try:
            data = raw if raw is not None else (None if body is None else json.dumps(body).encode())
            all_headers = {"Content-Type": "application/json", **(headers or {})}
            connection.request(method, path, body=data, headers=all_headers)
            response = connection.getresponse()
            return Reply(
                response.status,
                {k.lower(): v for k, v in response.getheaders()},
                response.read(),
            )
        finally:
            connection.close()


@contextmanager
def serve(
    settings: AppConfig, cache: CacheBackend | None = None, pages: PageCache | None = None
) -> Iterator[Client]:
    site = create_app(settings, cache, pages)
    server = make_server(
        "127.0.0.1",
        0,
        validator(site),
        server_class=ThreadingWSGIServer,
        handler_class=QuietHandler,
    )
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield Client(server.server_port)
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=10)
        site.close()


@contextmanager
def serve_on(database: str, request: Any, tmp_path: Path) -> Iterator[Client]:
    """The application, in-process cache, on an empty database of the kind named (``sqlite``,
    ``postgres``, ``mariadb``: a throwaway database on the session's server)."""
    with serve_on_url(database, request, tmp_path) as (client, _):
        yield client


@contextmanager
def serve_on_url(database: str, request: Any, tmp_path: Path) -> Iterator[tuple[Client, str]]:
    """:func:`serve_on`, and the database's URL (to look at what the site stored)."""
    drop: Callable[[], None] = lambda: None  # noqa: E731
    if database == "sqlite":
        url = str(tmp_path / "site.sqlite3")
    elif database == "postgres":
        url, drop = empty_postgres_database(request.getfixturevalue("postgres_url"))
    else:
        url, drop = empty_mariadb_database(request.getfixturevalue("mariadb_url"))
    try:
        prepare(url)
        settings = AppConfig(db_path=create_seeded_database(tmp_path), database_url=url)
        with serve(settings, LocalCache()) as client:
            yield client, url
    finally:
        drop()
