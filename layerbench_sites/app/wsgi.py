"""The WSGI application: the ladder's rungs as bare WSGI (so that each rung costs only its own
layer), and the demo site's API (Falcon) for every other path when a database is configured.
No exception escapes as a crash."""

import traceback
from collections.abc import Callable, Iterable
from typing import Any

from jinja2 import Environment, PackageLoader, select_autoescape

from layerbench.rungs.definitions import CACHED_PAGE, PAGE
from layerbench.site_contract import HEALTH_PATH
from layerbench_sites.app.api.application import Api
from layerbench_sites.app.api.page_cache import KeyValuePageCache, NoPages, PageCache
from layerbench_sites.app.app_config import AppConfig
from layerbench_sites.app.cache import CacheBackend, LocalCache
from layerbench_sites.app.database import Database
from layerbench_sites.app.rung_handlers import TEXT, Handler, Response
from layerbench_sites.app.rung_table import rung_handlers, rung_routes

StartResponse = Callable[..., Any]
WSGIApplication = Callable[[dict[str, Any], StartResponse], Iterable[bytes]]


# The full page, built on every request: the demo site's video page with no page cache.
PAGE_RUNG_PATH = PAGE.path
PAGE_PATH = CACHED_PAGE.path


def create_app(
    settings: AppConfig, cache: CacheBackend | None = None, pages: PageCache | None = None
) -> "Site":
    """The site on ``cache`` (the cache rung's, and the pages' unless ``pages`` says where)."""
    templates = Environment(
        loader=PackageLoader("layerbench_sites.app", "templates"), autoescape=select_autoescape()
    )
    cache = cache or LocalCache(settings.cache_max_bytes)
    database = Database(settings.db_path, settings.orm_url)
    routes = rung_routes(rung_handlers(database, cache, templates, settings.services))
    routes[HEALTH_PATH] = lambda: ("200 OK", TEXT, b"ok")
    if not settings.database_url:
        return Site(routes, None, None)
    api = Api(settings.database_url, pages or KeyValuePageCache(cache), templates, settings.secret)
    uncached = Api(settings.database_url, NoPages(), templates, settings.secret)
    return Site(routes, api, uncached)


class Site:
    """The WSGI callable: a rung's path to its handler, the page rung to the site without its
    page cache, any other path to the API."""

    def __init__(self, routes: dict[str, Handler], api: Api | None, uncached: Api | None) -> None:
        self.routes = routes
        self.api = api
        self.uncached = uncached

    def __call__(self, environ: dict[str, Any], start_response: StartResponse) -> Iterable[bytes]:
        path = environ.get("PATH_INFO", "")
        if path == PAGE_RUNG_PATH and self.uncached is not None:
            result: Iterable[bytes] = self.uncached.app(
                {**environ, "PATH_INFO": PAGE_PATH}, start_response
            )
            return result
        if self.api is not None and path not in self.routes:
            result = self.api.app(environ, start_response)
            return result
        status, headers, body = _dispatch(self.routes, environ)
        start_response(status, [*headers, ("Content-Length", str(len(body)))])
        return [] if environ.get("REQUEST_METHOD") == "HEAD" else [body]

    def close(self) -> None:
        """Closes the API's database connections."""
        for api in (self.api, self.uncached):
            if api is not None:
                api.context.close()


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
