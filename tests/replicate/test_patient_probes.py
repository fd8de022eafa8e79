"""Patient readiness probes (layerbench/replicate/patient_probes.py): a server that answers its
probe after more than the usual second is not ready to the usual probe (which leaves, under a
lazily loaded application, another process importing at each retry), and ready to a patient
one; outside, the usual probe again. The server: a thread on loopback that answers each request
after SLOW_S."""

import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from layerbench.replicate.patient_probes import PATIENT_PROBE_S, patient_probes
from layerbench.servers.managed_server import ManagedServer

SLOW_S = 1.5


class _Slow(BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        time.sleep(SLOW_S)
        self.send_response(200)
        self.send_header("Content-Length", "2")
        self.end_headers()
        self.wfile.write(b"ok")

    def log_message(self, *_: object) -> None:
        pass


class _Probed(ManagedServer):
    """Only probed: the slow thread above is the server it probes."""

    name = "probed"

    def version(self) -> str:
        return "0"

    def command(self) -> list[str]:
        return ["true"]


@pytest.fixture
def slow_port() -> Iterator[int]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Slow)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server.server_address[1]
    finally:
        server.shutdown()
        server.server_close()


def test_a_slow_answer_is_waited_for_only_within(workdir: Path, slow_port: int) -> None:
    server = _Probed(workdir, slow_port)
    assert server.probe() is not None  # the usual second: not answered yet
    with patient_probes(server):
        assert server.probe_timeout_s == PATIENT_PROBE_S
        assert server.probe() is None
    assert server.probe_timeout_s < SLOW_S
