"""The page-cache directory under gunicorn with nginx in front (as ``app serve --cache
file:///DIR`` runs them): a directory that was there keeps its mode (one nginx cannot reach is
a clear error, not a chmod); pages belong to the database that built them; a path segment too
long for a file name is a 404, not a 500."""

import stat
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from layerbench.errors import ConfigError
from layerbench.proc.ports import free_port
from layerbench.servers.nginx_front import NginxFront
from layerbench_sites.app.app_config import CACHE_URL_VARIABLE
from tests.app_server import Client
from tests.gunicorn_site import gunicorn_site

pytestmark = pytest.mark.services

VIDEO = {"title": "Toxic", "url": "https://example.org/toxic"}


def front_of(port: int, pages: Path, workdir: Path) -> NginxFront:
    return NginxFront(workdir / f"nginx-{port}", free_port(), f"127.0.0.1:{port}", pages)


@contextmanager
def behind_nginx(database_dir: Path, pages: Path, workdir: Path) -> Iterator[Client]:
    """The site on ``database_dir``'s database, its pages in ``pages``, nginx in front."""
    environment = {CACHE_URL_VARIABLE: f"file://{pages}"}
    with (
        gunicorn_site(database_dir, environment) as site,
        front_of(site.server.port, pages, workdir) as front,
    ):
        yield Client(front.port)


def served_from_file(client: Client, path: str) -> bool:
    client.request("GET", path)
    return client.request("GET", path).headers.get("x-cache") == "front"


def test_an_existing_directory_keeps_its_mode(
    nginx_binary: Path, workdir: Path, tmp_path: Path
) -> None:
    pages = workdir / "shared"
    pages.mkdir()
    pages.chmod(0o1777)
    with behind_nginx(tmp_path, pages, workdir) as client:
        video = client.request("POST", "/videos", VIDEO).json()["id"]
        assert served_from_file(client, f"/videos/{video}")
    assert stat.S_IMODE(pages.stat().st_mode) == 0o1777


def test_a_directory_nginx_cannot_reach_is_a_clear_error(
    nginx_binary: Path, workdir: Path, tmp_path: Path
) -> None:
    pages = workdir / "private"
    pages.mkdir()
    pages.chmod(0o700)
    with gunicorn_site(tmp_path, {CACHE_URL_VARIABLE: f"file://{pages}"}) as site:
        assert site.client.request("GET", "/videos").status == 200  # the directory opened
        with pytest.raises(ConfigError, match=f"{pages}: nginx's workers .* cannot reach it"):
            front_of(site.server.port, pages, workdir).start()
    assert stat.S_IMODE(pages.stat().st_mode) == 0o700


def test_pages_belong_to_the_database_that_built_them(
    nginx_binary: Path, workdir: Path, tmp_path: Path
) -> None:
    pages = workdir / "pages"
    (tmp_path / "first").mkdir()
    (tmp_path / "second").mkdir()
    with behind_nginx(tmp_path / "first", pages, workdir) as client:
        video = client.request("POST", "/videos", VIDEO).json()["id"]
        assert served_from_file(client, f"/videos/{video}")
        assert served_from_file(client, "/")
    with behind_nginx(tmp_path / "second", pages, workdir) as client:
        gone = client.request("GET", f"/videos/{video}")
        assert (gone.status, gone.headers.get("x-cache")) == (404, None), gone.body
        index = client.request("GET", "/")
        assert index.headers["x-cache"] == "miss" and b"Toxic" not in index.body


def test_a_database_made_again_at_the_same_path_is_another(
    nginx_binary: Path, workdir: Path, tmp_path: Path
) -> None:
    """``rm site.sqlite3`` and serve again with the same DIR: the new database's identity is
    not the old one's, so the old pages are gone though the path is the same."""
    pages = workdir / "pages"
    with behind_nginx(tmp_path, pages, workdir) as client:
        video = client.request("POST", "/videos", VIDEO).json()["id"]
        assert served_from_file(client, f"/videos/{video}")
    # The site's database, and the rungs' (which gunicorn_site makes anew too).
    for database in ("site.sqlite3", "layerbench.sqlite3"):
        for suffix in ("", "-wal", "-shm"):
            (tmp_path / (database + suffix)).unlink(missing_ok=True)
    with behind_nginx(tmp_path, pages, workdir) as client:
        gone = client.request("GET", f"/videos/{video}")
        assert (gone.status, gone.headers.get("x-cache")) == (404, None), gone.body


@pytest.mark.parametrize("length", [255, 256, 1_000])
def test_a_segment_too_long_for_a_file_name_is_404(
    nginx_binary: Path, workdir: Path, tmp_path: Path, length: int
) -> None:
    pages = workdir / "pages"
    with behind_nginx(tmp_path, pages, workdir) as client:
        for path in (f"/videos/{'a' * length}", f"/v/{'a' * length}", f"/{'a' * length}"):
            assert client.request("GET", path).status == 404, path
