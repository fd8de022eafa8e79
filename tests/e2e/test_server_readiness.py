"""A server that answers 500 while layerbench waits for it is failing, not starting: its start
ends within seconds with its log once, instead of after the whole start timeout; a 500 that
lasts only a moment of its start is waited out."""

import sys
import time
from pathlib import Path

import pytest

from layerbench.errors import ServerStartError
from layerbench.proc.ports import free_port
from layerbench.servers.managed_server import FAILING_FOR_S, START_TIMEOUT_S, ManagedServer

# A real HTTP server on loopback: 500 (and a line on stderr, as an application's traceback)
# until FAILING_S has passed, then 200.
SERVER = """\
import sys, time
from http.server import BaseHTTPRequestHandler, HTTPServer
failing_until = time.monotonic() + float(sys.argv[2])
class Handler(BaseHTTPRequestHandler):
    def do_GET(self):
        failing = time.monotonic() < failing_until
        if failing:
            print("ImportError: no module named 'application'", file=sys.stderr, flush=True)
        self.send_response(500 if failing else 200)
        self.send_header("Content-Length", "0")
        self.end_headers()
    def log_message(self, *args):
        pass
HTTPServer(("127.0.0.1", int(sys.argv[1])), Handler).serve_forever()
"""


class FailingServer(ManagedServer):
    name = "failing"

    def __init__(self, workdir: Path, failing_s: float) -> None:
        super().__init__(workdir, free_port())
        self.failing_s = failing_s

    def version(self) -> str:
        return "1"

    def command(self) -> list[str]:
        return [sys.executable, "-c", SERVER, str(self.port), str(self.failing_s)]


def test_a_server_answering_500_fails_fast_with_its_log_once(tmp_path: Path) -> None:
    began = time.monotonic()
    with pytest.raises(ServerStartError) as raised:
        FailingServer(tmp_path, failing_s=3600).start()
    assert time.monotonic() - began < START_TIMEOUT_S / 4
    message = str(raised.value)
    assert message.startswith("failing did not start: it answers http://127.0.0.1:")
    assert "HTTP 500; last lines of its log:\nImportError:" in message
    assert message.count("last lines of its log") == 1


def test_a_moment_of_500_during_the_start_is_waited_out(tmp_path: Path) -> None:
    with FailingServer(tmp_path, failing_s=FAILING_FOR_S / 3) as server:
        assert server.probe() is None
