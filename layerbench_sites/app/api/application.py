"""The Falcon application of the API, on a database URL and a page cache."""

import traceback
from typing import Any

import falcon
from jinja2 import Environment

from layerbench_sites.app.api import openapi, pages, resources
from layerbench_sites.app.api.csrf import CsrfGuard
from layerbench_sites.app.api.http import CatalogPerRequest, Context, answer
from layerbench_sites.app.api.page_cache import PageCache
from layerbench_sites.app.api.security_headers import SecurityHeaders
from layerbench_sites.app.videos import ConflictError

# What the triggers say when a write breaks a rule of the registry (all three databases).
RULE_MESSAGES = ("cannot change", "can be set once")


def is_conflict(error: Exception) -> bool:
    """A write the database refused for what is stored: a unique value taken, a rule of the
    registry broken, a client's id taken by another. (Every DB-API driver names its integrity
    errors IntegrityError.)"""
    if isinstance(error, ConflictError):
        return True
    if type(error).__name__ == "IntegrityError" or any(
        cls.__name__ == "IntegrityError" for cls in type(error).__mro__
    ):
        return True
    return any(message in str(error) for message in RULE_MESSAGES)


class Api:
    """The Falcon application of the API and what its resources share."""

    def __init__(
        self, database_url: str, page_cache: PageCache, templates: Environment, secret: bytes
    ) -> None:
        self.context = Context(database_url, page_cache)
        self.app = build_app(self.context, pages.Pages(self.context, templates, CsrfGuard(secret)))


def build_app(context: Context, site: pages.Pages) -> "falcon.App[falcon.Request, falcon.Response]":
    middleware: list[Any] = [SecurityHeaders(), CatalogPerRequest(context)]
    app = falcon.App(cors_enable=False, middleware=middleware)
    app.req_options.auto_parse_form_urlencoded = False
    app.add_route("/videos", resources.Videos(context))
    app.add_route("/videos/{ref}", resources.Video(context))
    app.add_route("/videos/{ref}/history", resources.VideoHistory(context))
    app.add_route("/videos/{ref}/comments", resources.Comments(context))
    app.add_route("/videos/{ref}/comments/{cref}", resources.Comment(context))
    app.add_route("/tags", resources.Tags(context))
    app.add_route("/tags/{name}", resources.Tag(context))
    app.add_route("/openapi.json", OpenApi())
    app.add_route("/", pages.IndexPage(site))
    app.add_route("/v/{ref}", pages.VideoPage(site))
    app.add_route("/v/{ref}/comments", pages.CommentForm(site))

    def database_error(
        req: falcon.Request, resp: falcon.Response, error: Exception, params: dict[str, Any]
    ) -> None:
        if is_conflict(error):
            raise resources.conflict(error)
        req.env["wsgi.errors"].write(traceback.format_exc())
        raise falcon.HTTPInternalServerError(title="internal error")

    app.add_error_handler(Exception, database_error)
    return app


class OpenApi:
    def __init__(self) -> None:
        self.document = openapi.document()

    def on_get(self, req: falcon.Request, resp: falcon.Response) -> None:
        answer(resp, self.document)
