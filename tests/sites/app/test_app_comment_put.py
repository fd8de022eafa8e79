"""``PUT /videos/{ref}/comments/{cref}``: a comment created or replaced under an id the client
draws, so that a client can send a failed comment again. Through a real WSGI server (under
wsgiref's validator) on SQLite, PostgreSQL and MariaDB: sent twice it is written once (one row,
one audit row, the second answer a 200 with the same document), a changed document replaces it
(one update audit row), its page is swept as a POST's is, and a bad one is refused (a pretty
id, an unknown video, the id of another video's comment or of a video)."""

from collections.abc import Iterator
from pathlib import Path

import pytest

from layerbench_sites.datalayer.open_repository import open_repository
from layerbench_sites.ids.generate import new_id
from tests.app_server import Client, serve_on_url
from tests.sites.app.test_app_api import assert_matches, openapi_schema

pytestmark = pytest.mark.services

VIDEO = {"title": "Toxic", "url": None}
COMMENT = {"name": "fan", "body": "sent once or twice", "email": "fan@example.org"}
PUT_PATH = "/videos/{ref}/comments/{cref}"


@pytest.fixture(params=["sqlite", "postgres", "mariadb"])
def site(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[Client, str]]:
    with serve_on_url(request.param, request, tmp_path) as served:
        yield served


def stored(url: str, comment: str) -> tuple[int, list[str]]:
    """The comment's rows in the database, and the operations of its audit rows."""
    repository = open_repository(url)
    try:
        cursor = repository.connection.cursor()
        p = repository.dialect.placeholder
        cursor.execute(f"SELECT count(*) FROM comments WHERE id = {p}", (comment,))
        ((rows,),) = cursor.fetchall()
        cursor.close()
        audit = [change.operation for change in repository.history("comments", comment)]
    finally:
        repository.connection.close()
    return int(rows), audit


def new_video(client: Client) -> str:
    created = client.request("POST", "/videos", VIDEO)
    assert created.status == 201, created.body
    video: str = created.json()["id"]
    return video


def test_a_comment_put_twice_is_written_once(site: tuple[Client, str]) -> None:
    client, url = site
    video, comment = new_video(client), new_id()
    path = f"/videos/{video}/comments/{comment}"
    first = client.request("PUT", path, COMMENT)
    assert first.status == 201, first.body
    assert first.headers["location"] == path
    assert first.headers["x-write-attempts"] == "1"
    assert_matches(openapi_schema(client, PUT_PATH, "put", 201), first.json())
    assert first.json() == {"id": comment, "video_id": video, "url": None, **COMMENT}
    again = client.request("PUT", path, COMMENT)
    assert (again.status, again.json()) == (200, first.json())
    assert again.headers["x-write-attempts"] == "1"
    assert "location" not in again.headers
    assert stored(url, comment) == (1, ["insert"])
    listed = client.request("GET", f"/videos/{video}/comments").json()
    assert [item["id"] for item in listed["items"]] == [comment]


def test_a_changed_comment_put_replaces_it(site: tuple[Client, str]) -> None:
    client, url = site
    video, comment = new_video(client), new_id()
    path = f"/videos/{video}/comments/{comment}"
    assert client.request("PUT", path, COMMENT).status == 201
    replaced = client.request("PUT", path, {"name": "fan", "body": "changed"})
    assert replaced.status == 200, replaced.body
    assert_matches(openapi_schema(client, PUT_PATH, "put", 200), replaced.json())
    assert (replaced.json()["body"], replaced.json()["email"]) == ("changed", None)
    assert stored(url, comment) == (1, ["insert", "update"])


def test_a_comment_put_is_shown_at_once_through_the_page_cache(site: tuple[Client, str]) -> None:
    client, _ = site
    video = new_video(client)
    page = f"/videos/{video}/comments"
    assert client.request("GET", page).json()["total"] == 0
    etag = client.request("GET", page).headers["etag"]  # the page is kept
    comment = new_id()
    assert client.request("PUT", f"{page}/{comment}", COMMENT).status == 201
    listed = client.request("GET", page, headers={"If-None-Match": etag})
    assert listed.status == 200, "the page kept before the PUT was swept"
    assert [item["id"] for item in listed.json()["items"]] == [comment]
    kept = client.request("GET", f"{page}/{comment}")
    assert kept.json()["body"] == COMMENT["body"]
    assert client.request("PUT", f"{page}/{comment}", {"name": "fan", "body": "new"}).status == 200
    shown = client.request(
        "GET", f"{page}/{comment}", headers={"If-None-Match": kept.headers["etag"]}
    )
    assert (shown.status, shown.json()["body"]) == (200, "new")


def test_a_bad_comment_put_is_refused_and_writes_nothing(site: tuple[Client, str]) -> None:
    client, url = site
    video, other = new_video(client), new_video(client)
    comment = new_id()
    assert client.request("PUT", f"/videos/{video}/comments/{comment}", COMMENT).status == 201
    refusals = [
        (f"/videos/{video}/comments/a-pretty-id", COMMENT, 422),
        (f"/videos/{video}/comments/{new_id()}", {"name": "no body"}, 422),
        (f"/videos/{new_id()}/comments/{new_id()}", COMMENT, 404),
        (f"/videos/{other}/comments/{comment}", {**COMMENT, "body": "moved"}, 409),
        (f"/videos/{video}/comments/{other}", COMMENT, 409),  # a video's id
    ]
    for path, document, status in refusals:
        reply = client.request("PUT", path, document)
        assert reply.status == status, (path, reply.body)
    assert stored(url, comment) == (1, ["insert"])
    assert client.request("GET", f"/videos/{other}/comments").json()["total"] == 0
    assert client.request("GET", f"/videos/{video}/comments").json()["total"] == 1


def test_a_video_put_under_a_comments_id_is_a_conflict(site: tuple[Client, str]) -> None:
    """Not a 500 after the repository drew 'again' the client's own id (it cannot)."""
    client, url = site
    video, comment = new_video(client), new_id()
    assert client.request("PUT", f"/videos/{video}/comments/{comment}", COMMENT).status == 201
    taken = client.request("PUT", f"/videos/{comment}", VIDEO)
    assert taken.status == 409, taken.body
    assert taken.json()["errors"] == [f"{comment} is the id of one of the comments"]
    assert stored(url, comment) == (1, ["insert"])
