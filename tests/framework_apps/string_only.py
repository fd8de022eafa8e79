"""A tiny application that answers the string rung only, registered by the tests of ``--app``
(a rung it does not answer must be not applicable, never run). Each process that imports it
says so in the file ``$STRING_ONLY_MARKER`` names: the test knows it was this application the
server ran, not the bare one (which answers the string rung alike)."""

import os
from collections.abc import Callable, Iterable
from typing import Any

from layerbench.rungs.definitions import HELLO, STRING

if marker := os.environ.get("STRING_ONLY_MARKER"):
    with open(marker, "a") as imported:
        imported.write(f"{os.getpid()}\n")


def application(environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
    if environ.get("PATH_INFO") == STRING.path:
        length = str(len(HELLO))
        start_response("200 OK", [("Content-Type", "text/plain"), ("Content-Length", length)])
        return [HELLO]
    start_response("404 Not Found", [("Content-Length", "0")])
    return [b""]
