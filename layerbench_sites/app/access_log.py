"""An access log kept by the application itself, for a server that keeps none (waitress): one
line per request on stderr, in gunicorn's format (``app serve``'s, see
:data:`layerbench.servers.gunicorn.ACCESS_LOG_FORMAT`), written once the answer is sent."""

import sys
import time
from collections.abc import Callable, Iterable, Iterator
from typing import Any, TextIO

from layerbench_sites.app.user_app import StartResponse, WSGIApplication


class AccessLogged:
    """``application`` with a line on ``out`` for every request it answers."""

    def __init__(self, application: WSGIApplication, out: TextIO = sys.stderr) -> None:
        self.application = application
        self.out = out

    def __call__(self, environ: dict[str, Any], start_response: StartResponse) -> Iterable[bytes]:
        started = time.monotonic()
        status = ["-"]

        def recording(status_line: str, headers: list[tuple[str, str]], *exc_info: Any) -> Any:
            status[0] = status_line.split(" ", 1)[0]
            return start_response(status_line, headers, *exc_info)

        def write(sent: int) -> None:
            self.out.write(line(environ, status[0], sent, time.monotonic() - started))
            self.out.flush()

        return CountedBody(self.application(environ, recording), write)


class CountedBody:
    """A response's body, passed through; ``done`` gets its size in bytes once, as soon as the
    application has given all of it (before the server's last write, so that a client that has
    its answer finds it logged), or when the server closes it early."""

    def __init__(self, body: Iterable[bytes], done: Callable[[int], None]) -> None:
        self.body = body
        self.done = done
        self.sent = 0
        self.logged = False

    def __iter__(self) -> Iterator[bytes]:
        if isinstance(self.body, list):
            # Its whole size is known before the server has any of it.
            self.sent = sum(len(chunk) for chunk in self.body)
            self._log()
            yield from self.body
            return
        for chunk in self.body:
            self.sent += len(chunk)
            yield chunk
        self._log()

    def close(self) -> None:
        try:
            close = getattr(self.body, "close", None)
            if close is not None:
                close()
        finally:
            self._log()

    def _log(self) -> None:
        if not self.logged:
            self.logged = True
            self.done(self.sent)


def line(environ: dict[str, Any], status: str, sent: int, took_s: float) -> str:
    # The target as the client sent it (waitress's REQUEST_URI), else as it was decoded.
    query = environ.get("QUERY_STRING", "")
    path = environ.get("SCRIPT_NAME", "") + environ.get("PATH_INFO", "")
    target = environ.get("REQUEST_URI") or (f"{path}?{query}" if query else path)
    request = f"{environ.get('REQUEST_METHOD', '-')} {target} {environ.get('SERVER_PROTOCOL', '-')}"
    when = time.strftime("[%d/%b/%Y:%H:%M:%S %z]")
    referer = environ.get("HTTP_REFERER", "-")
    agent = environ.get("HTTP_USER_AGENT", "-")
    return (
        f'{environ.get("REMOTE_ADDR", "-")} {when} "{request}" {status} {sent} '
        f'{round(took_s * 1000)}ms "{referer}" "{agent}"\n'
    )
