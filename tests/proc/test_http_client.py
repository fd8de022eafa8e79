"""The instrument's one HTTP client (layerbench.proc.http_client), against a real HTTP/1.1
server on loopback: requests share one kept-alive connection; a request that finds it closed by
the server is sent again once on a new one; a request on a new connection is never repeated;
the one-shot probe (http_probe) is the same client, closed after its request."""

import http.client
import select
import socket
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from layerbench.proc.http_client import HttpClient
from layerbench.proc.http_probe import http_request


class Recording(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, close_after_answer: bool) -> None:
        super().__init__(("127.0.0.1", 0), Handler)
        self.close_after_answer = close_after_answer
        self.requests: list[tuple[int, str, str, bytes]] = []  # (client port, method, path, body)


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server: Recording

    def do_GET(self) -> None:
        self.answer(b"")

    def do_POST(self) -> None:
        self.answer(self.rfile.read(int(self.headers["Content-Length"])))

    def answer(self, body: bytes) -> None:
        self.server.requests.append((self.client_address[1], self.command, self.path, body))
        answer = f"{self.headers.get('X-Who', '')}:{self.headers.get('Content-Type', '')}"
        self.send_response(200)
        self.send_header("Content-Length", str(len(answer)))
        self.end_headers()
        self.wfile.write(answer.encode())
        # Closed after answering, as a server's idle timeout closes a kept-alive connection.
        self.close_connection = self.server.close_after_answer

    def log_message(self, format: str, *args: object) -> None:
        pass


@contextmanager
def serving(*, close_after_answer: bool = False) -> Iterator[Recording]:
    server = Recording(close_after_answer)
    thread = threading.Thread(target=server.serve_forever)
    thread.start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


def test_requests_share_one_kept_alive_connection_with_the_client_headers() -> None:
    with (
        serving() as server,
        HttpClient("127.0.0.1", server.server_port, timeout_s=5, headers={"X-Who": "lb"}) as client,
    ):
        assert client.request("GET", "/one").body == b"lb:"
        answer = client.request("POST", "/two", b"{}", {"Content-Type": "application/json"})
        assert (answer.status, answer.body) == (200, b"lb:application/json")
    ports = {port for port, *_ in server.requests}
    assert [request[1:] for request in server.requests] == [
        ("GET", "/one", b""),
        ("POST", "/two", b"{}"),
    ]
    assert len(ports) == 1


def test_a_connection_the_server_closed_is_replaced_once() -> None:
    with (
        serving(close_after_answer=True) as server,
        HttpClient("127.0.0.1", server.server_port, timeout_s=5) as client,
    ):
        assert client.request("GET", "/first").status == 200
        kept = client._connection
        assert kept is not None and kept.sock is not None
        closed, _, _ = select.select([kept.sock], [], [], 10)  # the server's FIN has come
        assert closed
        assert client.request("GET", "/again").status == 200
    assert [path for _, _, path, _ in server.requests] == ["/first", "/again"]
    assert len({port for port, *_ in server.requests}) == 2


def test_a_request_on_a_new_connection_is_not_repeated() -> None:
    """A server that takes the connection and closes it unanswered: one attempt, its error."""
    accepted = []
    with socket.create_server(("127.0.0.1", 0)) as listener:

        def hang_up() -> None:
            connection, _ = listener.accept()
            accepted.append(connection)
            connection.close()

        thread = threading.Thread(target=hang_up)
        thread.start()
        client = HttpClient("127.0.0.1", listener.getsockname()[1], timeout_s=5)
        with pytest.raises((http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError)):
            client.request("GET", "/")
        thread.join()
    assert len(accepted) == 1


def test_no_server_is_an_os_error() -> None:
    with socket.create_server(("127.0.0.1", 0)) as taken:
        port = taken.getsockname()[1]
    with pytest.raises(ConnectionRefusedError):
        HttpClient("127.0.0.1", port, timeout_s=5).request("GET", "/")


def test_the_one_shot_request_sends_its_query_and_body_on_a_connection_of_its_own() -> None:
    with serving() as server:
        url = f"http://127.0.0.1:{server.server_port}"
        first = http_request(f"{url}/path?x=1", method="POST", body=b"b", content_type="text/plain")
        assert (first.status, first.body) == (200, b":text/plain")
        assert http_request(url).status == 200
    assert [request[1:] for request in server.requests] == [
        ("POST", "/path?x=1", b"b"),
        ("GET", "/", b""),
    ]
    assert len({port for port, *_ in server.requests}) == 2
