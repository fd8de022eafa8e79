"""The Rails site holds request bodies to the sites' limit as every other site does
(tests/sites/frameworks/test_site_bodies.py), under puma: a body declared over it is 413 in the
API's words, unparsed (Rails parsed it: a 64 KiB comment was 422), and so is a chunked one (puma 5
reads a chunked body to its end, into a file, before Rails is called: no answer comes before the
body's end here); one within it is read; unusable JSON text is 400."""

import json
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from layerbench.site_contract import BODY_TOO_LARGE_TITLE, MAX_BODY_BYTES
from layerbench_sites.app.ladder_data import prepare_app_data
from tests.app_server import Client
from tests.sites.frameworks.test_site_bodies import (
    ACTOR,
    COMMENT,
    COMMENTS,
    UNUSABLE,
    chunked_request,
    problem_of,
    stream_until_answered,
)
from tests.sites.rails_site.test_rails import RailsServer, build, client


@pytest.fixture(scope="module")
def rails() -> Iterator[Client]:
    root = Path(tempfile.mkdtemp(prefix="layerbench-test-rails-bodies-"))
    root.chmod(0o711)
    deployment: RailsServer = build(
        "puma", root, prepare_app_data(root / "data"), {"puma": {"workers": "1", "threads": "2"}}
    )
    deployment.start()
    try:
        yield client(deployment)
    finally:
        deployment.stop()
        shutil.rmtree(root, ignore_errors=True)


def test_a_body_declared_over_the_limit_is_413(rails: Client) -> None:
    body = json.dumps({**COMMENT, "body": "x" * MAX_BODY_BYTES}).encode()
    reply = rails.request("POST", COMMENTS, raw=body, headers=ACTOR)
    assert reply.status == 413, reply.body[:300]
    assert problem_of(reply)["title"] == BODY_TOO_LARGE_TITLE


def test_a_chunked_body_over_the_limit_is_413(rails: Client) -> None:
    _, answer = stream_until_answered(rails.port)
    assert answer.startswith(b"HTTP/1.1 413 "), answer[:300]
    assert BODY_TOO_LARGE_TITLE.encode() in answer


def test_a_chunked_body_within_the_limit_is_read(rails: Client) -> None:
    connection = chunked_request(rails.port, COMMENTS)
    try:
        body = json.dumps({**COMMENT, "body": "chunked to rails"}).encode()
        connection.sendall(f"{len(body):x}\r\n".encode() + body + b"\r\n0\r\n\r\n")
        answer = connection.recv(65536)
    finally:
        connection.close()
    assert answer.startswith(b"HTTP/1.1 201 "), answer[:300]


@pytest.mark.parametrize("text", UNUSABLE.values(), ids=list(UNUSABLE))
def test_unusable_json_text_is_400(rails: Client, text: bytes) -> None:
    reply = rails.request("POST", COMMENTS, raw=text, headers=ACTOR)
    assert reply.status == 400, reply.body[:300]
    assert problem_of(reply)["errors"], reply.body
