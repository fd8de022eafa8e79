"""The upstream rung's dependency: a small HTTP server that answers after a known delay.

    python -m layerbench.services.delaying_server --port PORT [--max-connections N]

For the applications: the lab gives each server the URL to call in ``$LAYERBENCH_UPSTREAM_URL``
(``http://127.0.0.1:PORT/delay/20``). A handler of the ``upstream`` rung GETs that URL (HTTP/1.1;
keeping the connection alive is the client's choice) and answers what it got: ``Hello world!``
(text/plain, 200), sent ``MS`` milliseconds after the request was read. Any other path is 404.

Bounded: it listens on loopback only (the host is not an option); one asyncio event loop
(uvloop) in one process; at most ``--max-connections`` open at once (one over is answered 503
and closed); a request line and headers of at most 8 KiB, no request body; a delay
of at most 10 s; a connection idle for 30 s is closed. ``GET /stats`` answers its counters as
JSON (requests delayed and answered, connections open, the most open at once, refused), for the
tests. It is started and stopped by the lab as a service (:mod:`layerbench.services.upstream`),
in a process group of its own, and never outlives it.
"""

import argparse
import asyncio
import contextlib
import json
import resource
import signal
from dataclasses import asdict, dataclass

HOST = "127.0.0.1"
DELAY_PREFIX = "/delay/"
STATS_PATH = "/stats"
ANSWER = b"Hello world!"
TEXT = "text/plain"
OVER_CAP = b"over its connection cap"
MAX_DELAY_MS = 10_000
MAX_HEAD_BYTES = 8192
IDLE_TIMEOUT_S = 30.0
DEFAULT_MAX_CONNECTIONS = 16_384
BACKLOG = 4096


@dataclass
class Counters:
    answered: int = 0
    open: int = 0
    most_open: int = 0
    refused: int = 0


def response(status: str, body: bytes, content_type: str = TEXT, close: bool = False) -> bytes:
    lines = [f"HTTP/1.1 {status}", f"Content-Type: {content_type}", f"Content-Length: {len(body)}"]
    if close:
        lines.append("Connection: close")
    return ("\r\n".join(lines) + "\r\n\r\n").encode() + body


class DelayingServer:
    def __init__(self, max_connections: int) -> None:
        self.max_connections = max_connections
        self.counters = Counters()

    async def serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        counters = self.counters
        if counters.open >= self.max_connections:
            counters.refused += 1
            writer.write(response("503 Service Unavailable", OVER_CAP, close=True))
            await self._close(writer)
            return
        counters.open += 1
        counters.most_open = max(counters.most_open, counters.open)
        try:
            while await self._one_request(reader, writer):
                pass
        except (OSError, asyncio.IncompleteReadError, asyncio.LimitOverrunError, TimeoutError):
            pass
        finally:
            counters.open -= 1
            await self._close(writer)

    async def _one_request(
        self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter
    ) -> bool:
        """Answer one request; False when the connection is to be closed."""
        head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), IDLE_TIMEOUT_S)
        lines = head.decode("latin-1").split("\r\n")
        method, _, rest = lines[0].partition(" ")
        path = rest.partition(" ")[0]
        headers = {
            name.strip().lower(): value.strip()
            for name, _, value in (line.partition(":") for line in lines[1:] if line)
        }
        if headers.get("content-length", "0") != "0" or "transfer-encoding" in headers:
            writer.write(response("400 Bad Request", b"no request body", close=True))
            return False
        close = headers.get("connection", "").lower() == "close" or rest.endswith("HTTP/1.0")
        if method != "GET":
            writer.write(response("405 Method Not Allowed", b"GET only", close=True))
            return False
        if path == STATS_PATH:
            body = json.dumps(asdict(self.counters)).encode()
            writer.write(response("200 OK", body, "application/json", close))
        elif path.startswith(DELAY_PREFIX) and (delay := _delay_ms(path)) is not None:
            await asyncio.sleep(delay / 1000)
            self.counters.answered += 1
            writer.write(response("200 OK", ANSWER, close=close))
        else:
            writer.write(response("404 Not Found", b"not found", close=close))
        await writer.drain()
        return not close

    @staticmethod
    async def _close(writer: asyncio.StreamWriter) -> None:
        with contextlib.suppress(OSError):
            writer.close()
            await writer.wait_closed()


def _delay_ms(path: str) -> int | None:
    text = path.removeprefix(DELAY_PREFIX)
    if not text.isdigit() or len(text) > 5:
        return None
    value = int(text)
    return value if value <= MAX_DELAY_MS else None


def raise_open_files_limit(needed: int) -> None:
    """As many descriptors as the cap needs, up to the hard limit."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = needed + 64 if hard == resource.RLIM_INFINITY else min(needed + 64, hard)
    if wanted > soft:
        resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))


async def main(port: int, max_connections: int) -> None:
    server = DelayingServer(max_connections)
    listening = await asyncio.start_server(
        server.serve, HOST, port, backlog=BACKLOG, limit=MAX_HEAD_BYTES
    )
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(signum, stop.set)
    async with listening:
        await stop.wait()


def run() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--max-connections", type=int, default=DEFAULT_MAX_CONNECTIONS)
    args = parser.parse_args()
    if args.max_connections < 1:
        parser.error("--max-connections is at least 1")
    raise_open_files_limit(args.max_connections)
    import uvloop  # the asgi extra's: imported in the server's own process only

    uvloop.run(main(args.port, args.max_connections))


if __name__ == "__main__":
    run()
