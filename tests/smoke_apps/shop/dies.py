"""An application whose server dies in the middle of a measurement, when run by one gunicorn
worker (``--set workers=1``): its first request (the smoke test's check that the URL answers) is
answered; any later one stops the server (SIGINT to the worker's parent, gunicorn's master: a
quick shutdown) and is answered all the same."""

import itertools
import os
import signal
from collections.abc import Callable, Iterable
from typing import Any

_requests = itertools.count(1)


def application(environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
    if next(_requests) > 1:
        os.kill(os.getppid(), signal.SIGINT)
    start_response("200 OK", [("Content-Type", "text/plain"), ("Content-Length", "2")])
    return [b"ok"]
