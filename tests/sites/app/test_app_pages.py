"""The demo site's HTML pages through a real WSGI server (under wsgiref's validator): the list,
a video with its comments, the comment form with its CSRF token, escaping of every text,
problem pages instead of 500s, and the page cache swept by a form post; on SQLite, PostgreSQL
and MariaDB."""

import re
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlencode

import pytest

from tests.app_server import Client, Reply, serve_on

SCRIPT = "<script>alert('x')</script>"
pytestmark = pytest.mark.services

FORM_TYPE = {"Content-Type": "application/x-www-form-urlencoded"}


@pytest.fixture(params=["sqlite", "postgres", "mariadb"])
def site(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Client]:
    with serve_on(request.param, request, tmp_path) as client:
        yield client


def new_video(site: Client, **fields: object) -> dict[str, object]:
    video = {"title": "Toxic", "url": "https://example.org/toxic", "tags": ["pop"], **fields}
    created = site.request("POST", "/videos", video)
    assert created.status == 201, created.body
    result: dict[str, object] = created.json()
    return result


def open_page(site: Client, path: str) -> tuple[Reply, str, str]:
    """The page, its form's token, and the session cookie it set."""
    page = site.request("GET", path)
    assert page.status == 200, page.body
    match = re.search(rb'name="csrf_token" value="([0-9a-f]{64})"', page.body)
    assert match, page.body
    cookie = page.headers["set-cookie"].split(";")[0]
    return page, match.group(1).decode(), cookie


def post_form(site: Client, path: str, fields: dict[str, str], cookie: str | None) -> Reply:
    headers = {**FORM_TYPE, **({"Cookie": cookie} if cookie else {})}
    return site.request("POST", path, raw=urlencode(fields).encode(), headers=headers)


def test_the_index_lists_videos_escaped(site: Client) -> None:
    new_video(site, title=f"Toxic {SCRIPT}")
    page = site.request("GET", "/")
    assert page.status == 200
    assert page.headers["content-type"] == "text/html; charset=utf-8"
    assert SCRIPT.encode() not in page.body
    assert b"Toxic &lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;" in page.body


def test_a_video_without_a_url_has_no_link(site: Client) -> None:
    linked = new_video(site)
    assert b'<a href="https://example.org/toxic"' in site.request("GET", f"/v/{linked['id']}").body
    created = site.request("POST", "/videos", {"title": "first title"})
    assert created.status == 201, created.body
    page = site.request("GET", f"/v/{created.json()['id']}")
    assert page.status == 200, page.body
    assert b'<h1 id="title">first title</h1>' in page.body
    assert b"nofollow" not in page.body
    assert b"None" not in page.body
    listed = site.request("GET", "/")
    assert listed.status == 200, listed.body
    assert f'<a href="/v/{created.json()["id"]}">first title</a>'.encode() in listed.body


def test_a_comment_posted_through_the_form_shows_on_the_page(site: Client) -> None:
    video = new_video(site)
    path = f"/v/{video['id']}"
    before, token, cookie = open_page(site, path)
    assert b"0 comments" in before.body
    assert "HttpOnly" in before.headers["set-cookie"]
    assert "SameSite=Lax" in before.headers["set-cookie"]
    fields = {
        "csrf_token": token,
        "name": f"Britney {SCRIPT}",
        "url": "",
        "email": "",
        "body": f"Oops\r\nI did it {SCRIPT}",
    }
    posted = post_form(site, f"{path}/comments", fields, cookie)
    assert posted.status == 303, posted.body
    assert posted.headers["location"].startswith(f"{path}#c-")
    after = site.request("GET", path, headers={"Cookie": cookie})
    assert after.status == 200
    assert b"1 comment<" in after.body
    assert SCRIPT.encode() not in after.body
    assert b"Oops\nI did it &lt;script&gt;" in after.body
    comments = site.request("GET", f"/videos/{video['id']}/comments").json()
    assert comments["items"][0]["body"] == f"Oops\nI did it {SCRIPT}"
    assert comments["items"][0]["url"] is None


def test_the_page_is_cached_with_a_token_per_browser(site: Client) -> None:
    video = new_video(site)
    path = f"/v/{video['id']}"
    first, token_a, cookie_a = open_page(site, path)
    second, token_b, cookie_b = open_page(site, path)
    assert (first.headers["x-cache"], second.headers["x-cache"]) == ("miss", "hit")
    assert token_a != token_b and cookie_a != cookie_b
    assert first.headers["etag"] != second.headers["etag"]
    assert "private" in second.headers["cache-control"]
    again = site.request("GET", path, headers={"Cookie": cookie_a})
    assert "set-cookie" not in again.headers
    assert token_a.encode() in again.body
    unchanged = site.request(
        "GET", path, headers={"Cookie": cookie_a, "If-None-Match": again.headers["etag"]}
    )
    assert unchanged.status == 304


def test_a_post_without_the_right_token_is_refused(site: Client) -> None:
    video = new_video(site)
    path = f"/v/{video['id']}"
    _, token, cookie = open_page(site, path)
    _, other_token, _ = open_page(site, path)
    fields = {"name": "Mallory", "body": "forged"}
    for form, sent_cookie in (
        (fields, cookie),
        ({**fields, "csrf_token": token}, None),
        ({**fields, "csrf_token": other_token}, cookie),
        ({**fields, "csrf_token": "0" * 64}, cookie),
    ):
        refused = post_form(site, f"{path}/comments", form, sent_cookie)
        assert refused.status == 403, refused.body
        assert b"reload the page" in refused.body
    assert site.request("GET", f"/videos/{video['id']}/comments").json()["total"] == 0


@pytest.mark.parametrize(
    ("fields", "status", "message"),
    [
        ({"name": "", "body": "x"}, 422, b"body.name"),
        ({"name": "a", "body": "x", "email": "nope"}, 422, b"body.email"),
        ({"name": "a", "body": "x", "url": "javascript:alert(1)"}, 422, b"body.url"),
        ({"name": "a", "body": "x", "admin": "1"}, 422, b"admin: not a field"),
        ({"name": "a", "body": "x" * 70_000}, 413, b"over 65536 bytes"),
    ],
)
def test_bad_forms_get_a_problem_page(
    site: Client, fields: dict[str, str], status: int, message: bytes
) -> None:
    video = new_video(site)
    path = f"/v/{video['id']}"
    _, token, cookie = open_page(site, path)
    answered = post_form(site, f"{path}/comments", {"csrf_token": token, **fields}, cookie)
    assert answered.status == status, answered.body
    assert message in answered.body
    assert answered.headers["content-type"] == "text/html; charset=utf-8"


def test_unknown_videos_and_odd_requests_are_not_errors(site: Client) -> None:
    assert site.request("GET", "/v/0000000000000").status == 404
    assert site.request("GET", "/v/nope'--").status == 404
    assert site.request("GET", "/?limit=1000").status == 422
    video = new_video(site)
    path = f"/v/{video['id']}/comments"
    as_json = site.request("POST", path, {"name": "a", "body": "b"})
    assert as_json.status == 415
    bad_bytes = site.request("POST", path, raw=b"name=%ff%fe", headers=FORM_TYPE)
    assert bad_bytes.status == 400, bad_bytes.body
    assert b"a form that cannot be read" in bad_bytes.body
