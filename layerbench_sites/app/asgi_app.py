"""An ASGI application named in ``$LAYERBENCH_ASGI_APP`` (``package.module:callable``,
imported from ``$LAYERBENCH_WSGI_APP_PATH``'s directories first, as a WSGI one is), else the
Starlette site; wrapped so that ``/health``, the servers' readiness probe, answers 200 and every
other event (lifespan included) goes to the application untouched."""

import os
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

from layerbench.site_contract import ASGI_APP_VARIABLE, USER_APP_PATH_VARIABLE
from layerbench_sites.app.user_app import PROBE_PATH, import_callable

DEFAULT_ASGI_APP = "layerbench_sites.frameworks.starlette_site.asgi:application"

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApplication = Callable[[Scope, Receive, Send], Awaitable[None]]

PROBE_HEADERS = [(b"content-type", b"text/plain"), (b"content-length", b"2")]


def with_asgi_probe(application: ASGIApplication) -> ASGIApplication:
    async def probed(scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope.get("path") == PROBE_PATH:
            await send({"type": "http.response.start", "status": 200, "headers": PROBE_HEADERS})
            await send({"type": "http.response.body", "body": b"ok"})
            return
        await application(scope, receive, send)

    return probed


def from_environment() -> ASGIApplication:
    spec = os.environ.get(ASGI_APP_VARIABLE) or DEFAULT_ASGI_APP
    paths = [p for p in os.environ.get(USER_APP_PATH_VARIABLE, "").split(os.pathsep) if p]
    application: ASGIApplication = import_callable(spec, paths)
    return with_asgi_probe(application)
