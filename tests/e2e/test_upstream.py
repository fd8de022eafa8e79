"""The upstream rung and its delaying server.

The server answers after the delay it is asked for (never sooner), on loopback only, with at
most its connection cap open (one over is refused with a 503, and served again once one
closes), and leaves nothing once stopped, or once layerbench is killed at any moment of its
start. The bare application's handler calls it once per
request and answers what it got, after the delay; a ladder asked for the rung starts the server
with the delay of ``--set upstream.ms`` (a value out of bounds refused before anything starts),
and a matrix on the rung does too. Each WSGI framework's view calls it as the bare handler
does (the ASGI applications': test_asgi_upstream.py)."""

import http.client
import json
import random
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from layerbench.errors import ConfigError
from layerbench.lab.app_under_test import app_environment
from layerbench.ladder.options import LadderOptions
from layerbench.proc.http_probe import http_get
from layerbench.proc.ports import free_port
from layerbench.rungs.applications import APPLICATIONS, Application
from layerbench.rungs.definitions import HELLO, UPSTREAM
from layerbench.servers.adapters import WSGI
from layerbench.servers.gunicorn import GunicornServer, GunicornSettings
from layerbench.services.upstream import UpstreamService, delay_url, upstream_stats
from layerbench_sites.app.app_config import ServiceUrls
from layerbench_sites.app.ladder_data import prepare_app_data
from tests.cli_lines import said
from tests.e2e.test_kill_during_start import KILL_WITHIN_S, kill_during_start
from tests.ladder_runs import run_ladder
from tests.proc_scan import group_members

DELAY_MS = 30


def timed_get(url: str) -> tuple[float, int, bytes]:
    began = time.monotonic()
    response = http_get(url, timeout_s=15.0)
    return (time.monotonic() - began) * 1000, response.status, response.body


@pytest.fixture(scope="module")
def upstream() -> Iterator[UpstreamService]:
    service = UpstreamService(ms=DELAY_MS)
    with service:
        yield service


def test_it_answers_after_the_delay_asked_for_never_sooner(upstream: UpstreamService) -> None:
    for delay_ms in (0, DELAY_MS, 120):
        took_ms, status, body = timed_get(delay_url(upstream.url, delay_ms))
        assert (status, body) == (200, HELLO)
        assert took_ms >= delay_ms
    assert upstream.url.endswith(f"/delay/{DELAY_MS}")


def test_it_refuses_what_is_not_its_answer(upstream: UpstreamService) -> None:
    assert http_get(delay_url(upstream.url, 10_001)).status == 404  # over 10 s
    assert http_get(upstream.url + "x").status == 404
    port = upstream.port
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    connection.request("POST", f"/delay/{DELAY_MS}", body=b"x")
    assert connection.getresponse().status == 400  # no request body
    connection.close()
    with socket.create_connection(("127.0.0.1", port), timeout=5) as raw:
        raw.sendall(b"GET /" + b"x" * 9000 + b" HTTP/1.1\r\n\r\n")  # a head over 8 KiB
        assert raw.recv(100) == b""  # closed, unanswered


def test_it_listens_on_loopback_only(upstream: UpstreamService) -> None:
    port = upstream.port
    with socket.create_connection(("127.0.0.1", port), timeout=5):
        pass
    with pytest.raises(ConnectionRefusedError):
        socket.create_connection(("127.0.0.2", port), timeout=5)  # another loopback address


def test_one_connection_over_its_cap_is_refused_and_served_once_one_closes() -> None:
    with UpstreamService(ms=0, max_connections=4) as service:
        port = service.port
        held = [socket.create_connection(("127.0.0.1", port), timeout=5) for _ in range(4)]
        try:
            for connection in held:  # each accepted and counted before the next
                connection.sendall(b"GET /delay/0 HTTP/1.1\r\n\r\n")
                assert connection.recv(1000).startswith(b"HTTP/1.1 200 OK")
            with socket.create_connection(("127.0.0.1", port), timeout=5) as over:
                over.sendall(b"GET /delay/0 HTTP/1.1\r\n\r\n")
                assert over.recv(1000).startswith(b"HTTP/1.1 503")
                assert over.recv(1000) == b""  # and closed
            held.pop().close()
            time.sleep(0.2)
            stats = upstream_stats(service.url)  # the fifth connection, now under the cap
            assert (stats["most_open"], stats["refused"], stats["answered"]) == (4, 1, 4)
        finally:
            for connection in held:
                connection.close()
        group = service.pid
    assert group_members(group) == []


def test_the_bare_application_waits_on_it_once_per_request(
    upstream: UpstreamService, workdir: Path
) -> None:
    data = prepare_app_data(workdir / "data", ServiceUrls(upstream=upstream.url))
    server = GunicornServer(
        workdir / "g",
        free_port(),
        data.db_path,
        GunicornSettings(workers=1),
        app_environment=data.environment,
    )
    with server:
        before = upstream_stats(upstream.url)["answered"]
        for _ in range(3):
            took_ms, status, body = timed_get(server.base_url + UPSTREAM.path)
            assert (status, body) == (200, HELLO)
            assert took_ms >= DELAY_MS
        assert upstream_stats(upstream.url)["answered"] == before + 3


def test_the_ladder_runs_the_rung_when_asked_with_the_delay_it_is_given(
    workdir: Path, load_binary: Path
) -> None:
    options = LadderOptions(
        rungs=("string", "upstream"),
        settings={"upstream": {"ms": "40"}, "gunicorn": {"workers": "2"}},
        concurrency=4,
        duration_s=1.0,
        warmup_s=0.2,
        repeats=1,
        pin=False,
    )
    assert [rung.name for rung in LadderOptions().ladder].count("upstream") == 0  # not unasked
    result = run_ladder(workdir, load_binary, options)
    _, rung = result.rungs
    assert (rung.rung, rung.status.value) == ("upstream", "ok"), rung.message
    assert result.conditions["services"]["upstream"].endswith("/delay/40")
    assert rung.load is not None and rung.load.errors == 0
    assert (rung.latency_ms("p50") or 0) >= 40
    # Two workers, each holding a request 40 ms at least: 50 requests a second at most.
    assert rung.requests_per_s is not None and rung.requests_per_s <= 2 / 0.040
    assert rung.usage is not None and "upstream" in rung.usage.roles


def test_a_delay_out_of_bounds_is_refused_before_anything_starts(workdir: Path) -> None:
    completed = subprocess.run(
        [sys.executable, "-m", "layerbench.cli", "ladder", "--rungs", "upstream",
         "--set", "upstream.ms=10001", "--json", str(workdir / "l.json")],
        capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert completed.returncode == 2
    assert said(completed.stderr) == (
        "layerbench: error: upstream.ms is 0 to 10,000 milliseconds, not 10001\n"
    )
    assert not (workdir / "l.json").exists()
    with pytest.raises(ConfigError, match="unknown rung upstreams"):
        LadderOptions(rungs=("upstreams",))


def test_a_matrix_on_the_rung_starts_its_server(workdir: Path, load_binary: Path) -> None:
    out = workdir / "m.json"
    completed = subprocess.run(
        [sys.executable, "-m", "layerbench.cli", "matrix", "--servers",
         "gunicorn:workers=1", "--rung", "upstream", "--concurrency", "2",
         "-d", "1", "--warmup", "0.2", "--set", "upstream.ms=25", "--no-pin",
         "--json", str(out)],
        capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert completed.returncode == 0, completed.stderr
    document = json.loads(out.read_text())
    assert document["conditions"]["services"]["upstream"].endswith("/delay/25")
    (cell,) = document["cells"]
    assert cell["status"] == "ok"
    # One worker, 25 ms a request at least: 40 a second at most.
    assert (cell["errors"], cell["roles"] is not None) == (0, True)
    assert 0 < cell["requests_per_s"] <= 40
    assert cell["latency_p50_ms"] >= 25


def test_a_kill_at_any_moment_of_its_start_leaves_nothing(workdir: Path) -> None:
    delay_s = random.uniform(0, KILL_WITHIN_S)  # as test_kill_during_start draws its moments
    outcome = kill_during_start("service", "upstream", delay_s, workdir / "kill")
    assert "missing" not in outcome
    assert not outcome.get("left"), f"killed {delay_s:.2f} s into its start: {outcome}"


# The frameworks with an upstream view (the bare application's: the test above).
WAITING_WSGI_APPS = [
    app
    for app in APPLICATIONS.values()
    if app.interface == WSGI and app.answers is not None and app.answers_rung("upstream")
]


@pytest.mark.wide
@pytest.mark.parametrize("app", WAITING_WSGI_APPS, ids=lambda app: app.name)
def test_each_wsgi_framework_waits_on_it_once_per_request(
    app: Application, upstream: UpstreamService, workdir: Path
) -> None:
    data = prepare_app_data(workdir / "data", ServiceUrls(upstream=upstream.url))
    server = GunicornServer(
        workdir / "g",
        free_port(),
        data.db_path,
        GunicornSettings(workers=1),
        app_environment={**data.environment, **app_environment(app)},
    )
    with server:
        before = upstream_stats(upstream.url)["answered"]
        took_ms, status, body = timed_get(server.base_url + UPSTREAM.path)
        assert (status, body) == (200, HELLO)
        assert took_ms >= DELAY_MS
        assert upstream_stats(upstream.url)["answered"] == before + 1
