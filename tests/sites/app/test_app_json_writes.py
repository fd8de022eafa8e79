"""Every write of the JSON API takes its body only as application/json (415 otherwise), under
gunicorn as ``app serve`` runs it: a cross-site page can make a browser send text/plain, a form
or multipart without a CORS preflight, never JSON. Nothing is written on a refusal. The HTML
form's post, its own path with its CSRF token, keeps working."""

import json
import re
from collections.abc import Iterator
from urllib.parse import urlencode

import pytest

from layerbench_sites.app.api.openapi import document
from tests.app_server import Client
from tests.gunicorn_site import gunicorn_site

VIDEO = {"title": "Toxic", "url": "https://example.org/toxic"}
COMMENT = {"name": "x", "body": "b"}
# What a page on another site can have a browser send without asking first.
CROSS_SITE_TYPES = [
    "text/plain",
    "text/plain; charset=utf-8",
    "application/x-www-form-urlencoded",
    "multipart/form-data; boundary=x",
]
SHORT_ID = "0000000000042"
COMMENT_SHORT_ID = "0000000000043"


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Client]:
    with gunicorn_site(tmp_path_factory.mktemp("json-writes")) as served:
        yield served.client


def write_routes(client: Client) -> list[tuple[str, str, dict[str, str]]]:
    """Every write the API has (method, path, a valid JSON body), on a new video and comment."""
    video = client.request("POST", "/videos", VIDEO).json()["id"]
    comment = client.request("POST", f"/videos/{video}/comments", COMMENT).json()["id"]
    return [
        ("POST", "/videos", VIDEO),
        ("PUT", f"/videos/{SHORT_ID}", VIDEO),
        ("PATCH", f"/videos/{video}", {"title": "changed"}),
        ("POST", f"/videos/{video}/comments", COMMENT),
        ("PUT", f"/videos/{video}/comments/{COMMENT_SHORT_ID}", COMMENT),
        ("PATCH", f"/videos/{video}/comments/{comment}", {"body": "changed"}),
        ("DELETE", f"/videos/{video}/comments/{comment}", {}),
        ("DELETE", f"/videos/{video}", {}),
    ]


def stored(client: Client) -> list[bytes]:
    """Everything the API shows, to see that a refused write changed nothing."""
    videos = client.request("GET", "/videos?limit=100").json()["items"]
    shown = [json.dumps(videos).encode()]
    for video in videos:
        shown.append(client.request("GET", f"/videos/{video['id']}/comments").body)
    return shown


@pytest.mark.parametrize("content_type", [*CROSS_SITE_TYPES, None])
def test_every_write_refuses_a_body_that_is_not_json(
    site: Client, content_type: str | None
) -> None:
    routes = write_routes(site)
    assert {method for method, _, _ in routes} == {"POST", "PUT", "PATCH", "DELETE"}
    before = stored(site)
    for method, path, body in routes:
        headers = {"Content-Type": content_type} if content_type else {"Content-Type": ""}
        reply = site.request(method, path, raw=json.dumps(body).encode(), headers=headers)
        assert reply.status == 415, (method, path, content_type, reply.body)
        assert reply.json()["title"] == "the body must be application/json"
    assert stored(site) == before


def test_json_with_a_charset_is_json(site: Client) -> None:
    for method, path, body in write_routes(site):
        headers = {"Content-Type": "application/json; charset=utf-8"}
        reply = site.request(method, path, raw=json.dumps(body).encode(), headers=headers)
        assert reply.status in (200, 201, 204), (method, path, reply.body)


def test_a_delete_without_a_body_needs_no_type(site: Client) -> None:
    video = site.request("POST", "/videos", VIDEO).json()["id"]
    assert site.request("DELETE", f"/videos/{video}", headers={"Content-Type": ""}).status == 204


def test_the_html_form_still_posts(site: Client) -> None:
    video = site.request("POST", "/videos", VIDEO).json()["id"]
    page = site.request("GET", f"/v/{video}")
    token = re.search(rb'name="csrf_token" value="([0-9a-f]{64})"', page.body)
    assert token, page.body
    cookie = page.headers["set-cookie"].split(";")[0]
    form = urlencode({"csrf_token": token.group(1).decode(), **COMMENT}).encode()
    headers = {"Content-Type": "application/x-www-form-urlencoded", "Cookie": cookie}
    posted = site.request("POST", f"/v/{video}/comments", raw=form, headers=headers)
    assert posted.status == 303, posted.body
    assert site.request("GET", f"/videos/{video}/comments").json()["total"] == 1


def test_the_openapi_document_says_so() -> None:
    paths = document()["paths"]
    writes = [
        (path, method, operation)
        for path, item in paths.items()
        for method, operation in item.items()
        if method in ("post", "put", "patch", "delete")
    ]
    assert len(writes) == 8
    for path, method, operation in writes:
        assert "415" in operation["responses"], (path, method)
        if "requestBody" in operation:
            assert list(operation["requestBody"]["content"]) == ["application/json"]
