"""Every site reads a request's body within the sites' limit and as JSON it can use, under a
real server (gunicorn for the WSGI sites, uvicorn for the ASGI ones), on SQLite:

- a body declared over the limit is 413 in the API's words, unread;
- a chunked body (no Content-Length) over the limit is 413 as soon as the limit is passed: the
  answer comes while the client is still sending. Before, FastAPI read a 315 MB body into
  memory and kept it, Starlette read it whole before its 413, Django under ASGI and WebOb
  (Pyramid) read it whole too; FastAPI parsed a 10 MB one;
- a chunked body within the limit is read (Django under gunicorn read it as empty);
- JSON text that Python's ``json`` takes but no site can use is 400 in the API's words: a lone
  surrogate (stored, UnicodeEncodeError: 500) and 1,000 nested arrays (RecursionError: 500);
- a path that is not UTF-8 is a 4xx (Pyramid and Zope answered 500).
"""

import contextlib
import json
import select
import socket
from collections.abc import Iterator

import pytest

from layerbench.errors import MissingPackageError
from layerbench.lab.app_under_test import app_environment
from layerbench.proc.ports import free_port
from layerbench.rungs.applications import APPLICATIONS
from layerbench.rungs.definitions import PAGE
from layerbench.rungs.rung_data import WRITE_VIDEO_PRETTYID
from layerbench.servers.adapters import ADAPTERS, ServerPlan
from layerbench.site_contract import BODY_TOO_LARGE_TITLE, MAX_BODY_BYTES
from layerbench_sites.app.ladder_data import prepare_app_data
from tests.app_server import Client, Reply
from tests.conftest import missing

# The sites that take a comment as JSON; Zope takes none, but reads bodies too.
WRITING_SITES = ["bare", "django", "flask", "pyramid", "starlette", "fastapi", "django-asgi"]
SITES = [*WRITING_SITES, "zope"]
SERVER = {"wsgi": "gunicorn", "asgi": "uvicorn"}
COMMENTS = f"/videos/{WRITE_VIDEO_PRETTYID}/comments"
ACTOR = {"X-Layerbench-User": "tester"}
COMMENT = {"name": "tester", "body": "a comment"}
# Valid JSON syntax, not usable text: a lone surrogate; nesting past any input of the API.
UNUSABLE = {
    "lone surrogate": b'{"name": "tester", "body": "\\ud800"}',
    "nested": b"[" * 1000 + b"]" * 1000,
}
# What a client streams at most: well past the limit, and past what the sockets' buffers hold.
STREAMED_BYTES = 64 * 1024 * 1024
CHUNK = b"x" * 65536
READ_LIMIT_S = 30


@pytest.fixture(scope="module")
def sites(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Client]]:
    """Every site on its server, each on a SQLite database of its own."""
    base = tmp_path_factory.mktemp("site-bodies")
    base.chmod(0o711)
    deployments = []
    clients = {}
    try:
        for name in SITES:
            app = APPLICATIONS[name]
            data = prepare_app_data(base / name / "data")
            plan = ServerPlan(
                workdir=base / name / "server",
                port=free_port(),
                db_path=data.db_path,
                static_files={},
                book={SERVER[app.interface]: {"workers": "1"}},
                app_environment={**app_environment(app), **data.environment},
            )
            try:
                deployment = ADAPTERS[SERVER[app.interface]].build(plan)
            except MissingPackageError as error:
                missing(str(error))
                raise AssertionError("unreachable") from error
            deployment.__enter__()
            deployments.append(deployment)
            clients[name] = Client(plan.port)
        yield clients
    finally:
        for deployment in reversed(deployments):
            deployment.__exit__(None, None, None)


def problem_of(reply: Reply) -> dict[str, object]:
    """The API's problem document: a title and a list of errors."""
    assert reply.headers["content-type"].startswith("application/json"), reply.headers
    document = reply.json()
    assert isinstance(document["title"], str) and isinstance(document["errors"], list)
    result: dict[str, object] = document
    return result


def chunked_request(port: int, path: str) -> socket.socket:
    connection = socket.create_connection(("127.0.0.1", port), timeout=READ_LIMIT_S)
    head = (
        f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        "X-Layerbench-User: tester\r\nTransfer-Encoding: chunked\r\n\r\n"
    )
    connection.sendall(head.encode())
    return connection


def stream_until_answered(port: int, path: str = COMMENTS) -> tuple[int, bytes]:
    """Streams a chunked body to ``path`` until the server answers (or STREAMED_BYTES are
    sent, then ends it): how much was sent by then, and the answer's first bytes."""
    connection = chunked_request(port, path)
    sent = 0
    answer = b""
    try:
        framed = f"{len(CHUNK):x}\r\n".encode() + CHUNK + b"\r\n"
        while sent < STREAMED_BYTES:
            readable, writable, _ = select.select([connection], [connection], [], READ_LIMIT_S)
            if readable:
                break
            assert writable, "the server neither read nor answered"
            try:
                connection.send(framed)
            except (BrokenPipeError, ConnectionResetError):
                break
            sent += len(CHUNK)
        else:
            connection.sendall(b"0\r\n\r\n")
        with contextlib.suppress(ConnectionResetError):
            answer = connection.recv(65536)
    finally:
        connection.close()
    return sent, answer


@pytest.mark.parametrize("name", SITES)
def test_a_body_declared_over_the_limit_is_413(sites: dict[str, Client], name: str) -> None:
    body = json.dumps({**COMMENT, "body": "x" * MAX_BODY_BYTES}).encode()
    reply = sites[name].request("POST", COMMENTS, raw=body, headers=ACTOR)
    assert reply.status == 413, reply.body[:300]
    assert problem_of(reply)["title"] == BODY_TOO_LARGE_TITLE


@pytest.mark.parametrize("name", SITES)
def test_a_chunked_body_over_the_limit_is_413_before_its_end(
    sites: dict[str, Client], name: str
) -> None:
    sent, answer = stream_until_answered(sites[name].port)
    assert sent < STREAMED_BYTES, f"read the whole {STREAMED_BYTES} bytes: {answer[:200]!r}"
    assert answer.startswith(b"HTTP/1.1 413 "), answer[:300]
    # The site still answers (a worker did not die of it).
    assert sites[name].request("GET", PAGE.path).status == 200


@pytest.mark.parametrize("name", WRITING_SITES)
def test_a_chunked_body_within_the_limit_is_read(sites: dict[str, Client], name: str) -> None:
    connection = chunked_request(sites[name].port, COMMENTS)
    try:
        body = json.dumps({**COMMENT, "body": f"chunked to {name}"}).encode()
        connection.sendall(f"{len(body):x}\r\n".encode() + body + b"\r\n0\r\n\r\n")
        answer = connection.recv(65536)
    finally:
        connection.close()
    assert answer.startswith(b"HTTP/1.1 201 "), answer[:300]


@pytest.mark.parametrize("text", UNUSABLE.values(), ids=list(UNUSABLE))
@pytest.mark.parametrize("name", WRITING_SITES)
def test_unusable_json_text_is_400(sites: dict[str, Client], name: str, text: bytes) -> None:
    reply = sites[name].request("POST", COMMENTS, raw=text, headers=ACTOR)
    assert reply.status == 400, reply.body[:300]
    assert problem_of(reply)["errors"], reply.body


@pytest.mark.parametrize("name", SITES)
def test_a_path_that_is_not_utf8_is_a_4xx(sites: dict[str, Client], name: str) -> None:
    """A lone surrogate in the path, %-escaped (Pyramid and Zope answered 500)."""
    for method, path in (("GET", "/v/%ED%A0%80"), ("POST", "/videos/%ED%A0%80/comments")):
        reply = sites[name].request(method, path, COMMENT, headers=ACTOR)
        assert 400 <= reply.status < 500, (method, reply.status, reply.body[:300])
