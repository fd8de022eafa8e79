"""``layerbench app serve``: serves the demo site's JSON and HTML from a SQLite file, stops
on Ctrl-C leaving nothing listening, and says in one line what is wrong with its options."""

import html
import json
import os
import signal
import subprocess
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from layerbench.proc.ports import listening_socket_inodes
from layerbench.proc.work_dirs import MARKER, sweep_abandoned
from tests.app_serve_process import LAYERBENCH, WITHOUT_NGINX, Serving, app_serve
from tests.cli_lines import said


def port_of(serving: Serving) -> int:
    return int(serving.base_url.rsplit(":", 1)[1])


def create_video(base: str) -> Any:
    request = urllib.request.Request(
        f"{base}/videos",
        data=json.dumps({"title": "Toxic", "url": "https://example.org/t"}).encode(),
        headers={"Content-Type": "application/json"},
        method="POST",
    )
    with urllib.request.urlopen(request, timeout=10) as created:
        assert created.status == 201
        return json.load(created)


def test_serve_answers_json_and_html_and_stops_on_ctrl_c(tmp_path: Path) -> None:
    database = tmp_path / "site.sqlite3"
    with app_serve("--db", str(database)) as serving:
        assert listening_socket_inodes(port_of(serving))
        base = serving.base_url
        video = create_video(base)
        with urllib.request.urlopen(f"{base}/v/{video['id']}", timeout=10) as page:
            assert b'<h1 id="title">Toxic</h1>' in page.read()
        with urllib.request.urlopen(f"{base}/ladder/string", timeout=10) as rung:
            assert rung.status == 200
        returncode, stderr = serving.stop()
    assert returncode == 130, stderr
    assert "(database " in serving.serving_line
    assert database.is_file()
    assert not listening_socket_inodes(port_of(serving)), "the server outlived app serve"


@pytest.mark.services
def test_serve_with_a_page_directory_has_nginx_serve_its_files(
    nginx_binary: Path, workdir: Path, tmp_path: Path
) -> None:
    pages = workdir / "pages"
    options = ["--db", str(tmp_path / "site.sqlite3"), "--cache", f"file://{pages}"]
    with app_serve(*options, "--workers", "2") as serving:
        base = serving.base_url
        path = f"/videos/{create_video(base)['id']}"
        served_by = []
        for _ in range(2):
            with urllib.request.urlopen(base + path, timeout=10) as answer:
                served_by.append((answer.headers["X-Cache"], answer.headers["Server"]))
        assert served_by[0][0] == "miss"
        assert served_by[1][0] == "front" and served_by[1][1].startswith("nginx")
        assert (pages / (path.removeprefix("/") + ".json")).is_file()
        returncode, stderr = serving.stop()
    assert returncode == 130, stderr
    # The access log has both requests, the one nginx answered from the page's file too.
    logged = [line for line in stderr.splitlines() if f'"GET {path} HTTP/1.1" 200' in line]
    assert [line.rsplit(" ", 1)[1] for line in logged] == ["miss", "front"], stderr
    assert "(database " in serving.serving_line
    assert not listening_socket_inodes(port_of(serving)), "nginx outlived app serve"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--workers", "2"], "the in-process cache belongs to one process"),
        (["--cache", "http://127.0.0.1:1"], "--cache http://127.0.0.1:1"),
        (["--port", "0"], "--port: '0' is not a whole number from 1 to 65,535"),
        (["--cache", "file:pages"], "a page-cache directory is file:///ABSOLUTE/PATH"),
        (["--db", "postgresql://u@127.0.0.1:1/x"], "cannot use the database"),
        (["--db", "sqlite://host/x.db"], "sqlite:///RELATIVE/PATH or sqlite:////ABSOLUTE/PATH"),
    ],
)
def test_wrong_options_are_one_line_errors(args: list[str], message: str) -> None:
    run = subprocess.run(
        [*LAYERBENCH, "app", "serve", *args],
        check=False,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode == 2, run.stderr  # a usage error
    assert message in run.stderr
    assert "Traceback" not in run.stderr


def test_a_killed_serve_leaves_a_marked_directory_the_next_command_removes(
    workdir: Path, tmp_path: Path
) -> None:
    # Its directory (a database copy, gunicorn's and nginx's) has the owner marker every work
    # directory has: after a kill -9 the next command's sweep removes it, as it does a run's.
    workdir.chmod(0o1777)  # as /tmp
    environment = {**os.environ, "TMPDIR": str(workdir)}
    with app_serve("--db", str(tmp_path / "site.sqlite3"), env=environment) as serving:
        (directory,) = workdir.glob("layerbench-app-*")
        assert (directory / MARKER).read_text().split()[0] == str(serving.process.pid)
        serving.process.send_signal(signal.SIGKILL)
        serving.process.wait()
    assert sweep_abandoned(workdir) == [directory]
    assert not directory.exists()


def test_a_database_url_of_another_kind_is_refused_naming_the_database_kinds() -> None:
    run = subprocess.run(
        [*LAYERBENCH, "app", "serve", "--db", "redis://127.0.0.1:6379/0"],
        check=False,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode == 2, run.stderr
    message = run.stderr.strip()
    assert len(message.splitlines()) == 1 and "Traceback" not in message
    assert "redis://127.0.0.1:6379/0 is not a database" in message
    assert "a plain path is fine" in message
    schemes_named = message.split("is not a database", 1)[1]
    assert "postgresql://" in schemes_named and "mysql://" in schemes_named
    assert "redis://" not in schemes_named and "memcached://" not in schemes_named


def video_count(base_url: str) -> int:
    with urllib.request.urlopen(f"{base_url}/videos", timeout=10) as answer:
        return int(json.load(answer)["total"])


def test_a_new_database_gets_the_demo_data_once_and_sqlite_urls_are_paths(
    tmp_path: Path,
) -> None:
    """Started on a new database named by a relative ``sqlite:///`` URL, the site shows the
    demo videos with their comments and tags; started again on the same file, named by an
    absolute ``sqlite:////`` URL, it has them once."""
    database = tmp_path / "demo" / "site.db"
    database.parent.mkdir()
    with app_serve("--db", "sqlite:///demo/site.db", cwd=tmp_path) as serving:
        with urllib.request.urlopen(f"{serving.base_url}/videos", timeout=10) as answer:
            videos = json.load(answer)["items"]
        with urllib.request.urlopen(f"{serving.base_url}/", timeout=10) as answer:
            index = answer.read().decode()
        first = videos[0]["id"]
        with urllib.request.urlopen(f"{serving.base_url}/videos/{first}/comments") as answer:
            comments = json.load(answer)["total"]
        assert "demo videos" in serving.stop()[1]
    assert database.is_file()
    assert len(videos) >= 3 and all(video["tags"] for video in videos)
    assert comments >= 1
    assert all(html.escape(video["title"], quote=False) in index for video in videos)
    with app_serve("--db", f"sqlite:///{database}", cwd=tmp_path) as again:
        assert video_count(again.base_url) == len(videos)
        assert "demo videos" not in again.stop()[1]


def test_without_nginx_waitress_serves_and_one_line_says_so(tmp_path: Path) -> None:
    options = ["--db", str(tmp_path / "site.sqlite3"), "--no-demo-data", "--threads", "4"]
    with app_serve(*options, nginx=False) as serving:
        assert video_count(serving.base_url) == 0
        _, stderr = serving.stop()
    [said] = [line for line in stderr.splitlines() if "nginx" in line]
    assert said.startswith("layerbench: nginx is not installed; install it with: apt-get install")
    assert "waitress answers clients itself, in one process" in said


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--cache", "file:///tmp/pages"], "nginx serves the page cache's files, and nginx is"),
        (["--cache", "none", "--workers", "2"], "install nginx, or use --workers 1"),
    ],
)
def test_without_nginx_what_needs_it_is_refused_in_one_line(
    args: list[str], message: str, tmp_path: Path
) -> None:
    database = tmp_path / "site.sqlite3"
    run = subprocess.run(
        [*WITHOUT_NGINX, "app", "serve", "--db", str(database), *args],
        check=False,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode == 2, run.stderr  # a usage error
    assert len(said(run.stderr).strip().splitlines()) == 1 and message in run.stderr, run.stderr
    assert "nginx is not installed" in run.stderr
    assert not database.exists() and "serving" not in run.stdout  # refused before anything
