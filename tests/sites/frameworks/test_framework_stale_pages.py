"""0 stale pages on the framework sites (Django, Flask, Pyramid: the applications that write),
as on the bare application (test_app_stale_pages, whose driver this is): one writer posts
comments "version 1", "version 2", … to the write rung's video while readers GET its page from
the framework's own page cache, under both of the video's names; once a comment's POST has
returned, no page read that starts later lacks it. On SQLite (the in-process page cache, one
worker) in make test; on PostgreSQL with memcached (two workers sharing the cache) and MariaDB
with Redis in make test-wide.

The framework applications do not say whether a page came from their cache (no X-Cache), so
this test cannot count hits: that the page cache serves and is swept is test_framework_sites'
check; this one is that no sweep comes too late or is undone by a reader that rendered the
page before the write."""

from pathlib import Path

import pytest

from layerbench.rungs.applications import Application
from layerbench.rungs.rung_data import WRITE_VIDEO_PRETTYID
from tests.app_server import Client
from tests.sites.frameworks.test_framework_sites import LAYOUTS, SITE_APPLICATIONS, framework_site
from tests.stale_reads import drive, versions_in

WRITES = 40
READERS = 4
COMMENTS = f"/videos/{WRITE_VIDEO_PRETTYID}/comments"
WIDE_LAYOUTS = ["postgres-memcached", "mariadb-redis"]


def post_comment(site: Client, version: int) -> dict[str, str]:
    written = site.request(
        "POST",
        COMMENTS,
        {"name": "writer", "body": f"version {version}"},
        headers={"X-Layerbench-User": "writer"},
    )
    assert written.status == 201, written.body
    comment: dict[str, str] = written.json()
    return comment


def version_of(path: str, body: bytes) -> int:
    """The last comment the page shows; it shows every one before it, in order."""
    shown = versions_in(body)
    assert shown == list(range(len(shown))), (path, shown)
    return len(shown) - 1


def check_no_stale_page(
    app: Application, layout: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    with LAYOUTS[layout](tmp_path, request) as data, framework_site(app, tmp_path, data) as site:
        video_id = post_comment(site, 0)["video_id"]
        paths = [f"/v/{WRITE_VIDEO_PRETTYID}", f"/v/{video_id}"]

        def write(version: int) -> None:
            post_comment(site, version)

        run = drive(site, write, paths, version_of, writes=WRITES, readers=READERS)
        last = site.request("GET", paths[0]).body
    assert len(run.written) == WRITES
    assert len(run.reads) > WRITES, "the readers hardly overlapped the writes"
    assert {one.path for one in run.reads} == set(paths)
    stale = run.stale()
    assert stale == [], f"{len(stale)} stale reads of {len(run.reads)}: {stale[:5]}"
    assert version_of(paths[0], last) == WRITES


@pytest.mark.parametrize("app", SITE_APPLICATIONS, ids=lambda app: app.name)
def test_no_page_read_after_a_comment_lacks_it(
    app: Application, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    check_no_stale_page(app, "sqlite", tmp_path, request)


@pytest.mark.wide
@pytest.mark.parametrize("layout", WIDE_LAYOUTS)
@pytest.mark.parametrize("app", SITE_APPLICATIONS, ids=lambda app: app.name)
def test_no_page_read_after_a_comment_lacks_it_on_shared_caches(
    app: Application, layout: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    check_no_stale_page(app, layout, tmp_path, request)
