"""The page-cache directory: which pages become which files, that a sweep removes them, that a
page built before a sweep is not kept after it, and that nginx in front serves the files."""

import stat
from pathlib import Path

import pytest

from layerbench.errors import ConfigError
from layerbench.proc.http_probe import http_get
from layerbench.proc.ports import free_port
from layerbench.rungs.sqlite_file import create_seeded_database
from layerbench.servers.nginx_front import NginxFront
from layerbench_sites.app.api.page_cache import CachedPage, etag_of
from layerbench_sites.app.app_config import AppConfig
from layerbench_sites.app.cache import LocalCache
from layerbench_sites.app.cache_select import cache_from_url, page_directory_of, pages_from_url
from layerbench_sites.app.page_directory import PageDirectory, file_stem
from layerbench_sites.datalayer.open_repository import prepare
from tests.app_server import Client, serve

JSON = "application/json"
HTML = "text/html; charset=utf-8"
DATABASE = "/srv/site.sqlite3"


def page(body: bytes, content_type: str = JSON) -> CachedPage:
    return CachedPage(body, content_type, etag_of(body))


def test_paths_name_files_and_odd_paths_name_none() -> None:
    assert file_stem("/") == "index"
    assert file_stem("/videos") == "videos"
    assert file_stem("/videos/3j1pkh/comments/x7") == "videos/3j1pkh/comments/x7"
    for odd in ("/../etc/passwd", "/videos/..", "/.families/videos", "/a//b", "/videos/", "x"):
        assert file_stem(odd) is None, odd


def test_a_kept_page_is_a_file_readable_by_all(tmp_path: Path) -> None:
    directory = PageDirectory(tmp_path / "pages", DATABASE)
    lookup = directory.lookup("video:abc", "/videos/abc", "", shareable=True)
    assert lookup.page is None
    directory.keep(lookup, page(b'{"id":"abc"}'))
    kept = tmp_path / "pages" / "videos" / "abc.json"
    assert kept.read_bytes() == b'{"id":"abc"}'
    assert stat.S_IMODE(kept.stat().st_mode) == 0o644
    assert stat.S_IMODE(kept.parent.stat().st_mode) == 0o755
    again = directory.lookup("video:abc", "/videos/abc", "", shareable=True)
    assert again.page == page(b'{"id":"abc"}')
    directory.keep(directory.lookup("videos", "/", "", shareable=True), page(b"<p>", HTML))
    assert (tmp_path / "pages" / "index.html").read_bytes() == b"<p>"
    assert directory.lookup("videos", "/", "", shareable=True).page == page(b"<p>", HTML)


def test_pages_with_a_query_or_a_token_are_not_files(tmp_path: Path) -> None:
    directory = PageDirectory(tmp_path / "pages", DATABASE)
    for query, shareable in (("limit=5", True), ("", False)):
        lookup = directory.lookup("videos", "/videos", query, shareable=shareable)
        assert lookup.place is None
        directory.keep(lookup, page(b"[]"))
    assert not (tmp_path / "pages" / "videos.json").exists()


def test_a_sweep_removes_the_familys_files_and_only_them(tmp_path: Path) -> None:
    directory = PageDirectory(tmp_path / "pages", DATABASE)
    for family, path in (("video:abc", "/videos/abc"), ("video:abc", "/videos/abc/comments")):
        directory.keep(directory.lookup(family, path, "", shareable=True), page(b"{}"))
    directory.keep(directory.lookup("video:xyz", "/videos/xyz", "", shareable=True), page(b"{}"))
    directory.sweep({"video:abc"})
    root = tmp_path / "pages"
    assert not (root / "videos" / "abc.json").exists()
    assert not (root / "videos" / "abc" / "comments.json").exists()
    assert (root / "videos" / "xyz.json").exists()


def test_a_page_built_before_a_sweep_is_not_kept_after_it(tmp_path: Path) -> None:
    directory = PageDirectory(tmp_path / "pages", DATABASE)
    before = directory.lookup("video:abc", "/videos/abc", "", shareable=True)
    directory.sweep({"video:abc"})  # a write committed while the page was being built
    directory.keep(before, page(b'{"title":"old"}'))
    assert not (tmp_path / "pages" / "videos" / "abc.json").exists()
    after = directory.lookup("video:abc", "/videos/abc", "", shareable=True)
    directory.keep(after, page(b'{"title":"new"}'))
    assert (tmp_path / "pages" / "videos" / "abc.json").read_bytes() == b'{"title":"new"}'


def test_the_directory_is_chosen_by_a_file_url(tmp_path: Path) -> None:
    assert page_directory_of(f"file://{tmp_path}/p") == tmp_path / "p"
    assert page_directory_of("redis://127.0.0.1:6379") is None
    assert isinstance(pages_from_url(f"file://{tmp_path}/p", LocalCache()), PageDirectory)
    assert isinstance(cache_from_url(f"file://{tmp_path}/p"), LocalCache)
    for wrong in ("file://host/p", "file:relative/p"):
        with pytest.raises(ConfigError, match="file:///ABSOLUTE/PATH"):
            page_directory_of(wrong)


@pytest.mark.services
def test_nginx_serves_kept_pages_and_passes_the_rest_on(
    nginx_binary: Path, workdir: Path, tmp_path: Path
) -> None:
    url = str(tmp_path / "site.sqlite3")
    prepare(url)
    settings = AppConfig(db_path=create_seeded_database(tmp_path), database_url=url)
    pages = workdir / "pages"
    with serve(settings, LocalCache(), PageDirectory(pages, url)) as site:
        upstream = f"127.0.0.1:{site.port}"
        with NginxFront(workdir / "nginx", free_port(), upstream, pages) as front:
            client = Client(front.port)
            created = client.request("POST", "/videos", {"title": "one", "url": "https://e.org/"})
            assert created.status == 201
            path = f"/videos/{created.json()['id']}"
            first = client.request("GET", path)
            assert (first.status, first.headers["x-cache"]) == (200, "miss")
            second = client.request("GET", path)
            assert (second.status, second.headers["x-cache"]) == (200, "front")
            assert second.body == first.body
            assert second.headers["content-type"] == JSON
            # A query string, a write or the directory's own files always reach the application.
            assert client.request("GET", path + "?x=1").headers["x-cache"] in ("hit", "miss")
            patched = client.request("PATCH", path, {"title": "two"})
            assert patched.status == 200
            third = client.request("GET", path)
            assert third.headers["x-cache"] == "miss" and b'"two"' in third.body
            assert http_get(f"{front.base_url}/.families/videos").status == 404
            index = client.request("GET", "/")
            assert client.request("GET", "/").headers["x-cache"] == "front"
            assert client.request("GET", "/").body == index.body
