"""Every site's request body capped at :data:`MAX_BODY_BYTES` before its framework reads it:
a body declared larger is answered 413 unread, and a chunked one (no Content-Length) is read
up to the limit and no further, then handed on whole as a body of known length. Frameworks
read a body whole and unbounded (Starlette and FastAPI into memory, Django under ASGI into a
temporary file and then memory, WebOb for Pyramid and Zope), or refuse a large one in their own
words (Flask's HTML 413, Django's 400); the 413 here is the API's document, as the bare site's.

The WSGI application is wrapped by :func:`limited_wsgi`, the ASGI one by :class:`LimitedAsgi`.
Under ASGI the 413 asks the server to close the connection (``Connection: close``): the rest
of the body is never read, so the connection cannot carry another request. A WSGI application
may not send that header (PEP 3333); the WSGI servers close a connection whose body was left
unread (gunicorn, mod_wsgi), or read every body before the application is called (waitress).
"""

import io
import json
from collections.abc import Awaitable, Callable, Iterable, MutableMapping
from typing import Any

from layerbench.site_contract import BODY_TOO_LARGE_TITLE, MAX_BODY_BYTES

TOO_LARGE = json.dumps({"title": BODY_TOO_LARGE_TITLE, "errors": []}).encode()
TOO_LARGE_STATUS = "413 Content Too Large"
UNREADABLE_PATH = json.dumps({"title": "the path is not UTF-8", "errors": []}).encode()
JSON = "application/json"
READ_SIZE = 16 * 1024

StartResponse = Callable[..., Any]
WSGIApplication = Callable[[dict[str, Any], StartResponse], Iterable[bytes]]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]


def declared_length(text: str | None) -> int | None:
    """The Content-Length's number; None for none. One that is not a number is taken as over
    the limit (the servers refuse it before the application sees it)."""
    if text is None or text == "":
        return None
    return int(text) if text.isascii() and text.isdigit() else MAX_BODY_BYTES + 1


def limited_wsgi(application: WSGIApplication) -> WSGIApplication:
    """``application`` behind the body limit (see the module), and given only paths it can
    read: a path that is not UTF-8 once its %-escapes are decoded (``/v/%ED%A0%80``, a lone
    surrogate) is 400 here, where WebOb (Pyramid) and Zope raised on it (a 500)."""

    def limited(environ: dict[str, Any], start_response: StartResponse) -> Iterable[bytes]:
        if not readable_path(environ.get("PATH_INFO", "")):
            return problem_wsgi(start_response, "400 Bad Request", UNREADABLE_PATH)
        length = declared_length(environ.get("CONTENT_LENGTH"))
        if length is not None and length > MAX_BODY_BYTES:
            return too_large_wsgi(start_response)
        chunked = "chunked" in environ.get("HTTP_TRANSFER_ENCODING", "").lower()
        if length is None and chunked and environ.get("wsgi.input_terminated"):
            body = read_capped(environ["wsgi.input"])
            if body is None:
                return too_large_wsgi(start_response)
            environ["wsgi.input"] = io.BytesIO(body)
            environ["CONTENT_LENGTH"] = str(len(body))
        return application(environ, start_response)

    return limited


def read_capped(stream: Any) -> bytes | None:
    """The stream read to its end, or None as soon as it is over the limit."""
    pieces: list[bytes] = []
    size = 0
    while size <= MAX_BODY_BYTES:
        piece = stream.read(min(READ_SIZE, MAX_BODY_BYTES + 1 - size))
        if not piece:
            return b"".join(pieces)
        pieces.append(piece)
        size += len(piece)
    return None


def readable_path(path: str) -> bool:
    """Whether the WSGI ``PATH_INFO`` (bytes as latin-1, PEP 3333) is UTF-8 text."""
    try:
        path.encode("latin-1").decode("utf-8")
    except UnicodeError:
        return False
    return True


def too_large_wsgi(start_response: StartResponse) -> list[bytes]:
    return problem_wsgi(start_response, TOO_LARGE_STATUS, TOO_LARGE)


def problem_wsgi(start_response: StartResponse, status: str, document: bytes) -> list[bytes]:
    start_response(status, [("Content-Type", JSON), ("Content-Length", str(len(document)))])
    return [document]


class LimitedAsgi:
    """An ASGI application behind the body limit (see the module)."""

    def __init__(self, application: Any) -> None:
        """``application``: an ASGI application (typed by each framework in its own way)."""
        self.application = application

    async def __call__(self, scope: MutableMapping[str, Any], receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.application(scope, receive, send)
            return
        headers = dict(scope.get("headers") or [])
        length = declared_length(headers.get(b"content-length", b"").decode("latin-1"))
        if length is not None and length > MAX_BODY_BYTES:
            await too_large_asgi(send)
            return
        if length is not None or b"chunked" not in headers.get(b"transfer-encoding", b"").lower():
            # No body, or one of a length the server holds it to.
            await self.application(scope, receive, send)
            return
        body = await receive_capped(receive)
        if body is None:
            await too_large_asgi(send)
            return
        await self.application(scope, replayed(body, receive), send)


async def receive_capped(receive: Receive) -> bytes | None:
    """The request's body, or None as soon as it is over the limit (the rest left unread)."""
    pieces: list[bytes] = []
    size = 0
    while True:
        message = await receive()
        if message["type"] != "http.request":
            return b"".join(pieces)  # the client left: the application sees a short body
        piece = message.get("body", b"")
        size += len(piece)
        if size > MAX_BODY_BYTES:
            return None
        pieces.append(piece)
        if not message.get("more_body", False):
            return b"".join(pieces)


def replayed(body: bytes, receive: Receive) -> Receive:
    """``receive`` that gives the body read already as one message, then what the server
    sends next (a disconnect)."""
    given = False

    async def receive_again() -> Message:
        nonlocal given
        if not given:
            given = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return receive_again


async def too_large_asgi(send: Send) -> None:
    headers = [
        (b"content-type", JSON.encode()),
        (b"content-length", str(len(TOO_LARGE)).encode()),
        # The rest of the body is never read: the connection cannot carry another request.
        (b"connection", b"close"),
    ]
    await send({"type": "http.response.start", "status": 413, "headers": headers})
    await send({"type": "http.response.body", "body": TOO_LARGE})
