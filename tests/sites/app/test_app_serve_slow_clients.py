"""``layerbench app serve`` is not taken down by slow clients: with nginx in front (its default
where nginx is installed), and with waitress answering clients itself where nginx is not, 64
connections trickling their headers (slowloris) hold no thread of the application's, and a
normal request is answered at once all the while."""

import http.client
import socket
import time
from contextlib import ExitStack, closing
from pathlib import Path

import pytest

from tests.app_serve_process import app_serve

pytestmark = pytest.mark.services

SLOW_CLIENTS = 64
TRICKLE_FOR_S = 3.0
TRICKLE_EVERY_S = 0.5
ANSWER_WITHIN_S = 1.0


def test_slow_clients_do_not_hold_up_a_normal_request(nginx_binary: Path, tmp_path: Path) -> None:
    with app_serve("--db", str(tmp_path / "site.sqlite3"), "--no-demo-data") as serving:
        waits = answers_among_slow_clients(serving.base_url)
    assert max(waits) < ANSWER_WITHIN_S, waits


def test_without_nginx_slow_clients_do_not_hold_up_a_normal_request(tmp_path: Path) -> None:
    options = ["--db", str(tmp_path / "site.sqlite3"), "--no-demo-data"]
    with app_serve(*options, nginx=False) as serving:
        waits = answers_among_slow_clients(serving.base_url)
    assert max(waits) < ANSWER_WITHIN_S, waits


def answers_among_slow_clients(base_url: str) -> list[float]:
    """How long each normal GET took to answer while 64 slow clients trickled their headers."""
    port = int(base_url.rsplit(":", 1)[1])
    with ExitStack() as slow:
        clients = []
        for _ in range(SLOW_CLIENTS):
            client = slow.enter_context(closing(socket.create_connection(("127.0.0.1", port))))
            client.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")
            clients.append(client)
        waits = []
        deadline = time.monotonic() + TRICKLE_FOR_S
        line = 0
        while time.monotonic() < deadline:
            line += 1
            for client in clients:
                client.sendall(f"X-Slow-{line}: still here\r\n".encode())
            waits.append(timed_get(port))
            time.sleep(TRICKLE_EVERY_S)
    return waits


def timed_get(port: int) -> float:
    """How long a GET of /videos took to answer, from its sending on a connection already open
    (the connection's setup is left out: a busy machine's, not the server's); the limit is the
    timeout, so a held-up server fails the test within it."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=ANSWER_WITHIN_S * 2)
    try:
        connection.connect()
        started = time.monotonic()
        connection.request("GET", "/videos")
        response = connection.getresponse()
        response.read()
        assert response.status == 200
    except TimeoutError:
        return float("inf")
    finally:
        connection.close()
    return time.monotonic() - started
