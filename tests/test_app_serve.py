"""``layerbench app serve``: serves the demo site's JSON and HTML from a SQLite file, stops
on Ctrl-C leaving nothing listening, and says in one line what is wrong with its options."""

import json
import select
import signal
import subprocess
import sys
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from layerbench.servers.ports import free_port, listening_socket_inodes

LAYERBENCH = [sys.executable, "-m", "layerbench.cli"]
START_LIMIT_S = 30


def wait_until_serving(port: int, process: subprocess.Popen[str]) -> str:
    """Its first line, which says that every server it started is ready (listening alone is
    not: nginx listens before the application behind it has answered)."""
    assert process.stdout is not None
    ready, _, _ = select.select([process.stdout], [], [], START_LIMIT_S)
    assert ready, f"app serve said nothing within {START_LIMIT_S} s"
    line = process.stdout.readline()  # printed whole and flushed, or '' at its exit
    assert f"serving http://127.0.0.1:{port}/" in line, (line, process.communicate())
    assert listening_socket_inodes(port)
    return line


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
    port = free_port()
    database = tmp_path / "site.sqlite3"
    process = subprocess.Popen(
        [*LAYERBENCH, "app", "serve", "--db", str(database), "--port", str(port)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        serving = wait_until_serving(port, process)
        base = f"http://127.0.0.1:{port}"
        video = create_video(base)
        with urllib.request.urlopen(f"{base}/v/{video['id']}", timeout=10) as page:
            assert b'<h1 id="title">Toxic</h1>' in page.read()
        with urllib.request.urlopen(f"{base}/ladder/string", timeout=10) as rung:
            assert rung.status == 200
        process.send_signal(signal.SIGINT)
        _, stderr = process.communicate(timeout=30)
    finally:
        if process.poll() is None:
            process.kill()
            process.communicate()
    assert process.returncode == 130, stderr
    assert "(database " in serving
    assert database.is_file()
    assert not listening_socket_inodes(port), "the server outlived app serve"


@pytest.mark.services
def test_serve_with_a_page_directory_has_nginx_serve_its_files(
    nginx_binary: Path, workdir: Path, tmp_path: Path
) -> None:
    port = free_port()
    pages = workdir / "pages"
    command = [*LAYERBENCH, "app", "serve", "--db", str(tmp_path / "site.sqlite3")]
    command += ["--port", str(port), "--cache", f"file://{pages}", "--workers", "2"]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        serving = wait_until_serving(port, process)
        base = f"http://127.0.0.1:{port}"
        path = f"/videos/{create_video(base)['id']}"
        served_by = []
        for _ in range(2):
            with urllib.request.urlopen(base + path, timeout=10) as answer:
                served_by.append((answer.headers["X-Cache"], answer.headers["Server"]))
        assert served_by[0][0] == "miss"
        assert served_by[1][0] == "front" and served_by[1][1].startswith("nginx")
        assert (pages / (path.removeprefix("/") + ".json")).is_file()
        process.send_signal(signal.SIGINT)
        _, stderr = process.communicate(timeout=30)
    finally:
        if process.poll() is None:
            process.kill()
            process.communicate()
    assert process.returncode == 130, stderr
    assert "(database " in serving
    assert not listening_socket_inodes(port), "nginx outlived app serve"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--workers", "2"], "the in-process cache belongs to one process"),
        (["--cache", "http://127.0.0.1:1"], "--cache http://127.0.0.1:1"),
        (["--port", "0"], "--port 0: a port from 1 to 65535"),
        (["--cache", "file:pages"], "a page-cache directory is file:///ABSOLUTE/PATH"),
        (["--db", "postgresql://u@127.0.0.1:1/x"], "cannot use the database"),
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
