"""The FastAPI application (``create_app``): the ladder's string, orm and template rungs, the
upstream rung when its URL is set, and the site's video page (built, or through the page cache)
as ``async`` path operations on the Starlette site's data (:class:`AsgiSiteData`), and the
comments API declared with Pydantic models: FastAPI reads and validates the body
(``CommentInput``) and serializes the answer (``CommentOutput``). A body that is not JSON is
415, JSON that cannot be read 400, a comment that is not one 422 with the API's messages."""

from collections.abc import AsyncIterator, Callable, Coroutine
from contextlib import asynccontextmanager
from typing import Any

from fastapi import FastAPI, Request, Response
from fastapi.exceptions import RequestValidationError
from fastapi.routing import APIRoute
from starlette.middleware import Middleware

from layerbench.rungs.definitions import ORM, PAGE, STRING, TEMPLATE, UPSTREAM
from layerbench.rungs.rung_data import HELLO_VALUE, PAGE_VIDEO_PRETTYID, MissingRungDataError
from layerbench_sites.app.api.http import ACTOR_HEADER
from layerbench_sites.app.api.json_text import parse_json
from layerbench_sites.app.app_config import AppConfig
from layerbench_sites.app.body_limit import LimitedAsgi
from layerbench_sites.frameworks.fastapi_site.schemas import (
    CommentInput,
    CommentOutput,
    error_words,
)
from layerbench_sites.frameworks.starlette_site.app import (
    JSON,
    actor_of,
    created,
    problem,
)
from layerbench_sites.frameworks.starlette_site.core import HTML, TEXT, AsgiSiteData, Site

HELLO_BYTES = HELLO_VALUE.encode()


def add_ladder(app: FastAPI, data: AsgiSiteData) -> None:
    @app.get(STRING.path)
    async def string() -> Response:
        return Response(HELLO_BYTES, media_type=TEXT)

    @app.get(ORM.path)
    async def orm() -> Response:
        return Response((await data.hello_value()).encode(), media_type=TEXT)

    @app.get(TEMPLATE.path)
    async def template() -> Response:
        return Response(await data.hello_page(), media_type=HTML)

    if (client := data.upstream) is not None:

        @app.get(UPSTREAM.path)
        async def upstream() -> Response:
            return Response(await client.get(), media_type=TEXT)


def add_site(app: FastAPI, site: Site) -> None:
    @app.get(PAGE.path)
    async def page() -> Response:
        body = await site.video_page(PAGE_VIDEO_PRETTYID)
        if body is None:
            raise MissingRungDataError(f"the site's video {PAGE_VIDEO_PRETTYID}")
        return Response(body, media_type=HTML)

    @app.get("/v/{ref}")
    async def cached_page(ref: str, request: Request) -> Response:
        kept = await site.cached_page(ref, request.url.path)
        if kept is None:
            return problem(404, "not found", [f"no video {ref}"])
        return Response(kept.body, media_type=kept.content_type, headers={"ETag": kept.etag})

    @app.post("/videos/{ref}/comments", status_code=201, response_model=CommentOutput)
    async def post_comment(
        ref: str,
        comment: CommentInput,
        request: Request,
    ) -> Response:
        actor = actor_of(request)
        if actor is None:
            return problem(422, "invalid", [f"{ACTOR_HEADER}: 1 to 64 of A-Z a-z 0-9 . _ @ + -"])
        written = await site.add_comment(ref, comment.model_dump(), actor)
        if written is None:
            return problem(404, "not found", [f"no video {ref}"])
        return created(CommentOutput.model_validate(written).model_dump())

    @app.exception_handler(RequestValidationError)
    async def invalid(request: Request, error: RequestValidationError) -> Response:
        if request.headers.get("content-type", "").partition(";")[0].strip() != JSON:
            return problem(415, "not JSON", [f"the body must be {JSON}"])
        found = list(error.errors())
        if any(e["type"] == "json_invalid" for e in found):
            words = [str(e.get("ctx", {}).get("error") or e["msg"]) for e in found]
            return problem(400, "the body is not JSON", words)
        return problem(422, "invalid", [error_words(e) for e in found])


class SiteRequest(Request):
    """The request as FastAPI parses its JSON body: with the sites' reading of JSON text
    (:func:`parse_json`: no lone surrogates, no nesting without end), whose refusal is a
    ``JSONDecodeError`` that FastAPI answers as JSON it cannot read."""

    async def json(self) -> Any:
        if not hasattr(self, "_json"):
            self._json = parse_json(await self.body())
        return self._json


class SiteRoute(APIRoute):
    """FastAPI's route, its endpoints given a :class:`SiteRequest`."""

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        handler = super().get_route_handler()

        async def site_handler(request: Request) -> Response:
            return await handler(SiteRequest(request.scope, request.receive))

        return site_handler


def create_app(config: AppConfig | None = None) -> FastAPI:
    data = AsgiSiteData(config or AppConfig.from_env())

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        yield
        await data.close()

    app = FastAPI(
        lifespan=lifespan,
        openapi_url=None,
        docs_url=None,
        redoc_url=None,
        # The body capped before FastAPI reads it (see body_limit).
        middleware=[Middleware(LimitedAsgi)],
    )
    app.router.route_class = SiteRoute
    add_ladder(app, data)
    if data.site is not None:
        add_site(app, data.site)
    return app
