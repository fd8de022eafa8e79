"""The application: ``/`` answers 200, ``/missing`` 404, and ``/broken`` raises (a 500)."""

from collections.abc import Callable, Iterable
from typing import Any

# Not the application: a name a user may give by mistake.
settings = {"debug": False}


def application(environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
    path = environ.get("PATH_INFO")
    if path == "/broken":
        raise ZeroDivisionError("the shop's total divided by zero items")
    status = "404 Not Found" if path == "/missing" else "200 OK"
    start_response(status, [("Content-Type", "text/plain"), ("Content-Length", "4")])
    return [b"shop"]
