"""The WSGI application: routes a path to a rung, and never lets an exception escape as a crash."""

import traceback
from collections.abc import Callable, Iterable
from typing import Any

from jinja2 import Environment, PackageLoader, select_autoescape

from layerbench.app.cache import CacheBackend, LocalCache
from layerbench.app.database import Database
from layerbench.app.rungs import TEXT, Handler, LadderRungs, Response
from layerbench.app.settings import AppSettings

StartResponse = Callable[..., Any]
WSGIApplication = Callable[[dict[str, Any], StartResponse], Iterable[bytes]]

LADDER_PREFIX = "/ladder/"
HEALTH_PATH = "/health"


def create_app(settings: AppSettings, cache: CacheBackend | None = None) -> WSGIApplication:
    templates = Environment(
        loader=PackageLoader("layerbench.app", "templates"), autoescape=select_autoescape()
    )
    rungs = LadderRungs(Database(settings.db_path), cache or LocalCache(), templates)
    routes: dict[str, Handler] = {
        LADDER_PREFIX + name: handler for name, handler in rungs.handlers().items()
    }
    routes[HEALTH_PATH] = lambda: ("200 OK", TEXT, b"ok")

    def application(environ: dict[str, Any], start_response: StartResponse) -> Iterable[bytes]:
        status, headers, body = _dispatch(routes, environ)
        start_response(status, [*headers, ("Content-Length", str(len(body)))])
        return [] if environ.get("REQUEST_METHOD") == "HEAD" else [body]

    return application


def _dispatch(routes: dict[str, Handler], environ: dict[str, Any]) -> Response:
    handler = routes.get(environ.get("PATH_INFO", ""))
    if handler is None:
        return "404 Not Found", TEXT, b"not found"
    if environ.get("REQUEST_METHOD") not in ("GET", "HEAD"):
        return "405 Method Not Allowed", [*TEXT, ("Allow", "GET, HEAD")], b"method not allowed"
    try:
        return handler()
    except Exception:
        environ["wsgi.errors"].write(traceback.format_exc())
        return "500 Internal Server Error", TEXT, b"internal error"
