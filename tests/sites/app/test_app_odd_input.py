"""Odd requests under gunicorn, as ``app serve`` runs it, get a 4xx or are served, never a 500:
digits that ``str.isdigit()`` takes and ``int()`` refuses (or reads), numbers too long for
``int()``, a chunked JSON body (accepted, and bounded like any other). Form errors count in
words that agree with their number."""

import http.client
import json
from collections.abc import Iterator

import pytest

from layerbench.site_contract import MAX_BODY_BYTES
from tests.app_server import Client
from tests.gunicorn_site import gunicorn_site

VIDEO = {"title": "Toxic", "url": "https://example.org/toxic"}
# Superscript two (isdigit, not int), Arabic-Indic three (int reads it), 19 digits.
ODD_NUMBERS = ["%C2%B2", "%D9%A3", "1" * 19]


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Client]:
    with gunicorn_site(tmp_path_factory.mktemp("odd-input")) as served:
        yield served.client


def chunked_post(client: Client, path: str, body: bytes) -> tuple[int, bytes]:
    connection = http.client.HTTPConnection("127.0.0.1", client.port, timeout=30)
    try:
        pieces = [body[i : i + 1000] for i in range(0, len(body), 1000)]
        connection.request(
            "POST",
            path,
            body=iter(pieces),
            headers={"Content-Type": "application/json"},
            encode_chunked=True,
        )
        response = connection.getresponse()
        assert response.getheader("Content-Length") is not None or response.status != 200
        return response.status, response.read()
    finally:
        connection.close()


@pytest.mark.parametrize("number", ODD_NUMBERS)
def test_paging_with_odd_digits_is_422(site: Client, number: str) -> None:
    video = site.request("POST", "/videos", VIDEO).json()["id"]
    paths = ["/videos", f"/videos/{video}/comments", "/tags/pop", "/"]
    for path in paths:
        for name in ("offset", "limit"):
            reply = site.request("GET", f"{path}?{name}={number}")
            assert reply.status == 422, (path, name, reply.status, reply.body[:200])


def test_a_chunked_json_body_is_read(site: Client) -> None:
    status, body = chunked_post(site, "/videos", json.dumps({**VIDEO, "title": "chunked"}).encode())
    assert status == 201, body
    assert json.loads(body)["title"] == "chunked"


def test_a_chunked_body_over_the_limit_is_413(site: Client) -> None:
    long = json.dumps({**VIDEO, "description": "d" * MAX_BODY_BYTES}).encode()
    status, body = chunked_post(site, "/videos", long)
    assert status == 413, body


def test_errors_count_in_agreeing_words(site: Client) -> None:
    reply = site.request("POST", "/videos", {**VIDEO, "title": ""})
    assert reply.status == 422
    assert reply.json()["errors"] == ["body.title: at least 1 character"]
