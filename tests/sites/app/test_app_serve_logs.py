"""``layerbench app serve`` logs to stderr, with nginx in front and with waitress alone (no
nginx): every request (an access log, off with ``--quiet``), and every 5xx with its traceback;
a cache that does not answer is refused at the start, as a database is, instead of a 500 for
every request."""

import subprocess
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from tests.app_serve_process import LAYERBENCH, app_serve
from tests.conftest import start_service

pytestmark = pytest.mark.services


def status_of(url: str) -> int:
    try:
        with urllib.request.urlopen(url, timeout=10) as answer:
            return int(answer.status)
    except urllib.error.HTTPError as error:
        return error.code


@pytest.mark.parametrize("cache", ["redis://127.0.0.1:1/0", "memcached://127.0.0.1:1"])
def test_a_cache_that_does_not_answer_is_refused_at_the_start(cache: str, tmp_path: Path) -> None:
    run = subprocess.run(
        [*LAYERBENCH, "app", "serve", "--db", str(tmp_path / "x.db"), "--cache", cache],
        check=False,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode == 2, run.stderr  # a wrong option, as a database that does not answer
    assert f"layerbench: error: cannot use the cache {cache}: " in run.stderr
    assert "refused" in run.stderr
    assert "Traceback" not in run.stderr and "serving" not in run.stdout


@pytest.mark.parametrize("nginx", [True, False], ids=["nginx", "no-nginx"])
def test_a_cache_gone_after_the_start_is_a_logged_500(nginx: bool, tmp_path: Path) -> None:
    redis = start_service("redis")
    try:
        options = ["--db", str(tmp_path / "x.db"), "--cache", redis.url, "--no-demo-data"]
        with app_serve(*options, nginx=nginx) as serving:
            assert status_of(f"{serving.base_url}/videos") == 200
            redis.stop()
            assert status_of(f"{serving.base_url}/tags") == 500
            _, stderr = serving.stop()
    finally:
        redis.stop()
    assert '"GET /videos HTTP/1.1" 200' in stderr
    assert '"GET /tags HTTP/1.1" 500' in stderr
    assert "Traceback (most recent call last)" in stderr
    assert "redis.exceptions.ConnectionError" in stderr


@pytest.mark.parametrize("nginx", [True, False], ids=["nginx", "no-nginx"])
def test_quiet_keeps_no_access_log(nginx: bool, tmp_path: Path) -> None:
    options = ["--db", str(tmp_path / "x.db"), "--quiet", "--no-demo-data"]
    with app_serve(*options, nginx=nginx) as serving:
        assert status_of(f"{serving.base_url}/videos?quiet") == 200
        _, stderr = serving.stop()
    assert "/videos?quiet" not in stderr
