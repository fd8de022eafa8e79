"""The demo site's JSON API through a real WSGI server (under wsgiref's validator), on SQLite,
PostgreSQL and MariaDB: the REST operations and their statuses, bad input, the history and its
actor, the page cache and its sweeps, and responses that match the OpenAPI document."""

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from tests.app_server import Client, serve_on

pytestmark = pytest.mark.services

VIDEO = {"title": "Toxic", "url": "https://example.org/toxic", "tags": ["pop", "2004"]}


@pytest.fixture(params=["sqlite", "postgres", "mariadb"])
def site(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Client]:
    with serve_on(request.param, request, tmp_path) as client:
        yield client


def openapi_schema(client: Client, path: str, method: str, status: int) -> dict[str, Any]:
    document = client.request("GET", "/openapi.json").json()
    responses = document["paths"][path][method]["responses"]
    schema: dict[str, Any] = responses[str(status)]["content"]["application/json"]["schema"]
    return schema


def assert_matches(schema: dict[str, Any], value: Any) -> None:
    errors = [e.message for e in Draft202012Validator(schema).iter_errors(value)]
    assert not errors, errors


def test_create_show_list_update_delete(site: Client) -> None:
    created = site.request("POST", "/videos", VIDEO, {"X-Layerbench-User": "britney"})
    assert created.status == 201, created.body
    video = created.json()
    assert_matches(openapi_schema(site, "/videos", "post", 201), video)
    assert created.headers["location"] == f"/videos/{video['id']}"
    assert len(video["id"]) == 13
    assert video["tags"] == ["2004", "pop"]
    shown = site.request("GET", created.headers["location"])
    assert (shown.status, shown.json()) == (200, video)
    listed = site.request("GET", "/videos?limit=10").json()
    assert_matches(openapi_schema(site, "/videos", "get", 200), listed)
    assert listed["total"] == 1
    assert listed["items"] == [video]
    patched = site.request(
        "PATCH", f"/videos/{video['id']}", {"description": "<b>2004</b>", "tags": ["pop"]}
    )
    assert patched.status == 200, patched.body
    assert patched.json()["description"] == "<b>2004</b>"
    assert patched.json()["tags"] == ["pop"]
    assert site.request("DELETE", f"/videos/{video['id']}").status == 204
    assert site.request("GET", f"/videos/{video['id']}").status == 404
    assert site.request("DELETE", f"/videos/{video['id']}").status == 404


def test_put_with_a_client_id_is_idempotent(site: Client) -> None:
    path = "/videos/0000000000abc"
    first = site.request("PUT", path, VIDEO)
    assert first.status == 201, first.body
    assert first.headers["location"] == path
    again = site.request("PUT", path, VIDEO)
    assert (again.status, again.json()) == (200, first.json())
    history = site.request("GET", path + "/history").json()["changes"]
    assert [change["operation"] for change in history] == ["insert"], "no second write"
    assert site.request("PUT", "/videos/not-a-short-id", VIDEO).status == 422


def test_pretty_ids_address_a_video_and_are_set_once(site: Client) -> None:
    video = site.request("POST", "/videos", {**VIDEO, "prettyid": "toxic"}).json()
    assert site.request("GET", "/videos/toxic").json() == video
    taken = site.request("POST", "/videos", {**VIDEO, "prettyid": "toxic"})
    assert taken.status == 409, taken.body
    changed = site.request("PATCH", "/videos/toxic", {"prettyid": "poison"})
    assert changed.status == 409, changed.body
    assert site.request("GET", "/videos/toxic").status == 200
    looks_like_an_id = site.request("POST", "/videos", {**VIDEO, "prettyid": "0000000000abc"})
    assert looks_like_an_id.status == 422


def test_comments_in_the_order_they_were_written(site: Client) -> None:
    video = site.request("POST", "/videos", VIDEO).json()
    base = f"/videos/{video['id']}/comments"
    ids = []
    for n in range(3):
        reply = site.request("POST", base, {"name": f"fan {n}", "body": f"comment {n}"})
        assert reply.status == 201, reply.body
        assert_matches(openapi_schema(site, "/videos/{ref}/comments", "post", 201), reply.json())
        assert reply.headers["location"] == f"{base}/{reply.json()['id']}"
        ids.append(reply.json()["id"])
    page = site.request("GET", base + "?limit=2").json()
    assert [c["id"] for c in page["items"]] == ids[:2]
    assert page["next"] == f"{base}?offset=2&limit=2"
    assert [c["id"] for c in site.request("GET", page["next"]).json()["items"]] == ids[2:]
    one = site.request("GET", f"{base}/{ids[1]}")
    assert one.json()["body"] == "comment 1"
    assert site.request("PATCH", f"{base}/{ids[1]}", {"body": "edited"}).json()["body"] == "edited"
    assert site.request("DELETE", f"{base}/{ids[1]}").status == 204
    assert site.request("GET", f"{base}/{ids[1]}").status == 404
    other = site.request("POST", "/videos", VIDEO).json()
    assert site.request("GET", f"/videos/{other['id']}/comments/{ids[0]}").status == 404


def test_tags_list_and_filter(site: Client) -> None:
    site.request("POST", "/videos", VIDEO)
    site.request("POST", "/videos", {**VIDEO, "title": "Oops", "tags": ["pop"]})
    assert site.request("GET", "/tags").json()["items"] == [
        {"name": "2004", "videos": 1},
        {"name": "pop", "videos": 2},
    ]
    by_tag = site.request("GET", "/videos?tag=2004&limit=1").json()
    assert by_tag["total"] == 1
    assert by_tag["next"] is None
    popular = site.request("GET", "/videos?tag=pop&limit=1").json()
    assert popular["next"] == "/videos?offset=1&limit=1&tag=pop"
    tag = site.request("GET", "/tags/pop").json()
    assert [v["title"] for v in tag["videos"]["items"]] == ["Oops", "Toxic"]
    assert site.request("GET", "/tags/none").status == 404


@pytest.mark.parametrize(
    ("body", "status"),
    [
        (b"{not json", 400),
        (b"[]", 422),
        (b'{"title": 5, "url": "https://x.org/"}', 422),
        (b'{"url": "https://x.org/"}', 422),
        (b'{"title": "t", "url": "https://x.org/", "extra": 1}', 422),
        (b'{"title": "t\\u0000", "url": "https://x.org/"}', 422),
        (b'{"title": "t", "url": "javascript:alert(1)"}', 422),
        # A bracket that opens no IP literal: Python's urlsplit refuses it (schemathesis found).
        (b'{"title": "t", "url": "http://[/x"}', 422),
        (b'{"title": "t", "url": "http://x.org]/"}', 422),
        (b'{"title": "t", "url": "https://x.org/", "tags": ["a", "a"]}', 422),
        (b'{"title": "' + b"x" * 70_000 + b'", "url": "https://x.org/"}', 413),
    ],
)
def test_bad_input_is_a_clear_4xx_never_a_500(site: Client, body: bytes, status: int) -> None:
    reply = site.request("POST", "/videos", raw=body)
    assert reply.status == status, reply.body
    assert reply.json()["title"]
    assert site.request("GET", "/videos").json()["total"] == 0


def test_a_video_can_be_only_a_title(site: Client) -> None:
    """The url is optional: a video without one is created, shown with a null url as the
    OpenAPI document says; a PATCH can take a url away (null), and a PUT without one too."""
    created = site.request("POST", "/videos", {"title": "first title"})
    assert created.status == 201, created.body
    video = created.json()
    assert_matches(openapi_schema(site, "/videos", "post", 201), video)
    assert (video["title"], video["url"], video["tags"]) == ("first title", None, [])
    shown = site.request("GET", created.headers["location"])
    assert (shown.status, shown.json()) == (200, video)
    assert_matches(openapi_schema(site, "/videos/{ref}", "get", 200), shown.json())
    other = site.request("POST", "/videos", VIDEO).json()
    path = f"/videos/{other['id']}"
    cleared = site.request("PATCH", path, {"url": None})
    assert (cleared.status, cleared.json()["url"]) == (200, None), cleared.body
    replaced = site.request("PUT", "/videos/0000000000abc", {"title": "put"})
    assert (replaced.status, replaced.json()["url"]) == (201, None), replaced.body
    history = site.request("GET", path + "/history").json()["changes"]
    assert (history[-1]["old"]["url"], history[-1]["new"]["url"]) == (VIDEO["url"], None)


def test_sql_metacharacters_are_data(site: Client) -> None:
    title = "Robert'); DROP TABLE videos; -- %s ?"
    video = site.request("POST", "/videos", {**VIDEO, "title": title}).json()
    assert site.request("GET", f"/videos/{video['id']}").json()["title"] == title
    for ref in ("x'%20OR%20'1'='1", "0000000000000%27", "%00"):
        assert site.request("GET", f"/videos/{ref}").status == 404


def test_history_records_the_actor_and_answers_as_of(site: Client) -> None:
    headers = {"X-Layerbench-User": "editor"}
    video = site.request("POST", "/videos", VIDEO, headers).json()
    path = f"/videos/{video['id']}"
    site.request("PATCH", path, {"title": "Toxic (remix)"}, headers)
    changes = site.request("GET", path + "/history").json()["changes"]
    assert [c["operation"] for c in changes] == ["insert", "update"]
    assert all(c["actor"].startswith("editor@127.0.0.1") for c in changes)
    assert changes[1]["old"]["title"] == "Toxic"
    then = changes[0]["at"]
    as_of = site.request("GET", f"{path}/history?as_of={then}").json()
    assert as_of["video"]["title"] == "Toxic"
    assert site.request("GET", f"{path}/history?as_of=yesterday").status == 422
    bad_actor = site.request("POST", "/videos", VIDEO, {"X-Layerbench-User": "a b"})
    assert bad_actor.status == 422


def test_pages_are_cached_and_swept_by_writes(site: Client) -> None:
    video = site.request("POST", "/videos", VIDEO).json()
    path = f"/videos/{video['id']}"
    first, second = site.request("GET", path), site.request("GET", path)
    assert (first.headers["x-cache"], second.headers["x-cache"]) == ("miss", "hit")
    etag = second.headers["etag"]
    assert site.request("GET", path, headers={"If-None-Match": etag}).status == 304
    site.request("GET", "/videos")
    assert site.request("GET", "/videos").headers["x-cache"] == "hit"
    site.request("PATCH", path, {"title": "Changed"})
    after = site.request("GET", path)
    assert after.headers["x-cache"] == "miss"
    assert after.json()["title"] == "Changed"
    assert site.request("GET", path, headers={"If-None-Match": etag}).status == 200
    assert site.request("GET", "/videos").json()["items"][0]["title"] == "Changed"
    comments = path + "/comments"
    assert site.request("GET", comments).json()["total"] == 0
    site.request("POST", comments, {"name": "fan", "body": "first"})
    assert site.request("GET", comments).json()["total"] == 1


def test_the_ladder_lives_in_the_same_application(site: Client) -> None:
    assert site.request("GET", "/ladder/string").body == b"Hello world!"
    assert site.request("GET", "/health").status == 200
    assert site.request("GET", "/nowhere").status == 404
