"""What nginx in front of ``app serve`` answers itself, it answers as the application would:

- a body over the sites' limit is refused by nginx (413, the API's document) and never sent
  upstream. Sent on, the application refused it unread, gunicorn closed the kept-alive
  connection while nginx was still sending the body, and nginx read a reset where the 413 was:
  20 oversized POSTs and one valid one gave ``{413: 14, 502: 7}``, never 20 413s and a 201;
- TRACE, which nginx refuses before it chooses a location, goes to the application, whose 405
  names the path's methods in ``Allow`` (RFC 9110); nginx's own 405 had none.

With the page-cache directory too (its locations differ: nginx serves files there). Without
nginx, waitress answers clients: a body over the limit is refused as it comes (waitress read
bodies up to 1 GiB, into a file, before the application refused them)."""

import http.client
import json
import shutil
import tempfile
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest

from layerbench.site_contract import BODY_TOO_LARGE_TITLE, MAX_BODY_BYTES
from tests.app_serve_process import Serving, app_serve
from tests.sites.frameworks.test_site_bodies import STREAMED_BYTES, stream_until_answered

JSON = {"Content-Type": "application/json"}
VIDEO = {"title": "Toxic", "url": "https://example.org/toxic"}
# Well over the limit (and under nginx's default, 1 MiB): more than gunicorn drains of a body
# the application left unread before it closes the connection.
OVERSIZED = json.dumps({**VIDEO, "title": "x" * (8 * MAX_BODY_BYTES)}).encode()
# Paths of the API, with the methods the application lists for each.
ALLOWED = {
    "/videos": "GET, HEAD, POST, OPTIONS",
    "/tags": "GET, HEAD, OPTIONS",
    "/openapi.json": "GET, OPTIONS",
}


@pytest.fixture(scope="module")
def sites() -> Iterator[dict[str, Serving]]:
    """``app serve`` with the in-process cache and with a page-cache directory (which nginx's
    unprivileged workers reach)."""
    directory = Path(tempfile.mkdtemp(prefix="layerbench-test-"))
    directory.chmod(0o711)
    pages = directory / "pages"
    with (
        app_serve("--db", str(directory / "local.sqlite3"), "--quiet") as local,
        app_serve(
            "--db", str(directory / "files.sqlite3"), "--cache", f"file://{pages}", "--quiet"
        ) as files,
        app_serve("--db", str(directory / "waitress.sqlite3"), "--quiet", nginx=False) as alone,
    ):
        yield {"local": local, "file": files, "waitress": alone}
    shutil.rmtree(directory, ignore_errors=True)


def send(
    serving: Serving, method: str, path: str, body: bytes | None = None, *, chunked: bool = False
) -> tuple[int, http.client.HTTPMessage, bytes]:
    port = int(serving.base_url.rsplit(":", 1)[1])
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        if chunked and body is not None:
            pieces = [body[i : i + 8192] for i in range(0, len(body), 8192)]
            connection.request(method, path, body=iter(pieces), headers=JSON, encode_chunked=True)
        else:
            connection.request(method, path, body=body, headers=JSON if body else {})
        response = connection.getresponse()
        return response.status, response.headers, response.read()
    finally:
        connection.close()


@pytest.mark.parametrize("cache", ["local", "file"])
def test_oversized_bodies_are_413_and_the_next_write_is_made(
    sites: dict[str, Serving], cache: str
) -> None:
    serving = sites[cache]
    statuses: Counter[int] = Counter()
    for number in range(20):
        status, headers, body = send(serving, "POST", "/videos", OVERSIZED, chunked=number % 2 == 1)
        statuses[status] += 1
        if status == 413:
            assert headers.get_content_type() == "application/json"
            assert json.loads(body) == {"title": BODY_TOO_LARGE_TITLE, "errors": []}
    status, _, body = send(serving, "POST", "/videos", json.dumps(VIDEO).encode())
    statuses[status] += 1
    assert statuses == {413: 20, 201: 1}, body


@pytest.mark.parametrize("cache", ["local", "file"])
def test_trace_is_405_with_the_paths_methods(sites: dict[str, Serving], cache: str) -> None:
    serving = sites[cache]
    for path, methods in ALLOWED.items():
        status, headers, _ = send(serving, "TRACE", path)
        assert (status, headers["Allow"]) == (405, methods), path
        # What the application answers to another method it does not take, alike.
        status, other, _ = send(serving, "PATCH", path)
        assert (status, other["Allow"]) == (405, methods), path
    status, _, _ = send(serving, "TRACE", "/no-such-path")
    assert status == 404


@pytest.mark.parametrize("cache", ["local", "file", "waitress"])
def test_a_chunked_body_over_the_limit_is_refused_before_its_end(
    sites: dict[str, Serving], cache: str
) -> None:
    port = int(sites[cache].base_url.rsplit(":", 1)[1])
    sent, answer = stream_until_answered(port, "/videos")
    assert sent < STREAMED_BYTES, f"read the whole {STREAMED_BYTES} bytes: {answer[:200]!r}"
    assert answer.startswith(b"HTTP/1.1 413 "), answer[:300]
