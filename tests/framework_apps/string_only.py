"""A tiny application that answers the string rung only, registered by the tests of ``--app``
(a rung it does not answer must be not applicable, never run)."""

from collections.abc import Callable, Iterable
from typing import Any

from layerbench.rungs.definitions import HELLO, STRING


def application(environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
    if environ.get("PATH_INFO") == STRING.path:
        length = str(len(HELLO))
        start_response("200 OK", [("Content-Type", "text/plain"), ("Content-Length", length)])
        return [HELLO]
    start_response("404 Not Found", [("Content-Length", "0")])
    return [b""]
