"""The page cache's sweeper observes the repository: a write made through the repository, not
through a resource (which once swept by hand), still expires exactly the pages it changed, under
every name of the video, its comments' pages with it; the pages of other videos stay kept."""

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from falcon.testing import Result, TestClient

from layerbench.rungs.sqlite_file import create_seeded_database
from layerbench_sites.app.app_config import AppConfig
from layerbench_sites.app.cache import LocalCache
from layerbench_sites.app.videos import Catalog
from layerbench_sites.app.wsgi import Site, create_app
from layerbench_sites.datalayer.open_repository import prepare
from layerbench_sites.ids.codec import decode


@pytest.fixture
def site(tmp_path: Path) -> Iterator[Site]:
    url = str(tmp_path / "site.sqlite3")
    prepare(url)
    app = create_app(
        AppConfig(db_path=create_seeded_database(tmp_path), database_url=url), LocalCache()
    )
    yield app
    app.close()


def kept(client: TestClient, path: str) -> Result:
    """The page of ``path``, read twice: the second read comes from the page cache."""
    assert client.simulate_get(path).headers["x-cache"] == "miss"
    again = client.simulate_get(path)
    assert again.headers["x-cache"] == "hit"
    return again


def fresh(client: TestClient, path: str) -> Any:
    """The page of ``path``, which a write swept: built again."""
    page = client.simulate_get(path)
    assert page.headers["x-cache"] == "miss", (path, page.text[:200])
    return page.json


def test_a_write_through_the_repository_sweeps_its_pages(site: Site) -> None:
    client = TestClient(site)
    made = client.simulate_post("/videos", json={"title": "before", "prettyid": "swept"})
    video = made.json["id"]
    other = client.simulate_post("/videos", json={"title": "other"}).json["id"]
    for path in ("/videos/swept", f"/videos/{video}", f"/videos/{video}/comments", "/videos"):
        kept(client, path)
    kept(client, f"/videos/{other}")
    assert site.api is not None
    catalog: Catalog = site.api.context.borrow()
    try:
        repository = catalog.repository
        repository.update("videos", video, {"title": "after"}, actor="maintenance")
        assert fresh(client, "/videos/swept")["title"] == "after"
        assert fresh(client, f"/videos/{video}")["title"] == "after"
        assert [item["title"] for item in fresh(client, "/videos")["items"]] == ["after", "other"]
        assert client.simulate_get(f"/videos/{other}").headers["x-cache"] == "hit"

        kept(client, "/videos/swept/comments")
        comment = {"video_numid": decode(video), "author": "fan", "body": "first"}
        repository.create("comments", comment, actor="maintenance")
        assert fresh(client, "/videos/swept/comments")["total"] == 1
        assert fresh(client, f"/videos/{video}/comments")["total"] == 1

        repository.delete("videos", video, actor="maintenance")
        assert client.simulate_get("/videos/swept").status_code == 404
    finally:
        site.api.context.give_back(catalog)
