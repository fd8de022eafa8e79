"""The Starlette application (``create_app``): the ladder's string, orm and template rungs on the
rung data, the upstream rung (a GET of the delaying server, awaited) when its URL is set, and
the site's video page (built on every request at ``/ladder/page``, through the page cache at
``/v/{ref}``) and its comments API (``POST /videos/{ref}/comments``), each an ``async`` endpoint
on :class:`AsgiSiteData`."""

import json
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from typing import Any

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from layerbench.rungs.definitions import ORM, PAGE, STRING, TEMPLATE, UPSTREAM
from layerbench.rungs.rung_data import HELLO_VALUE, PAGE_VIDEO_PRETTYID, MissingRungDataError
from layerbench.site_contract import MAX_BODY_BYTES
from layerbench_sites.app.api import schemas
from layerbench_sites.app.api.http import ACTOR_HEADER, ACTOR_PATTERN
from layerbench_sites.app.api.json_text import parse_json
from layerbench_sites.app.app_config import AppConfig
from layerbench_sites.app.body_limit import LimitedAsgi
from layerbench_sites.frameworks.starlette_site.core import HTML, TEXT, AsgiSiteData, Site

JSON = "application/json"
HELLO_BYTES = HELLO_VALUE.encode()
# Who makes a write when neither the server nor the client names a user.
ANONYMOUS = "anonymous"


class CompactJSONResponse(JSONResponse):
    """JSON as the bare application answers it: compact, UTF-8."""

    def render(self, content: Any) -> bytes:
        return json.dumps(content, separators=(",", ":"), ensure_ascii=False).encode()


def problem(status: int, title: str, errors: list[str]) -> Response:
    return CompactJSONResponse({"title": title, "errors": errors}, status_code=status)


def actor_of(request: Request) -> str | None:
    """Who writes, as the history records it (``user@address``); None for a name that is not
    one."""
    user = request.scope.get("user_name") or request.headers.get(ACTOR_HEADER) or ANONYMOUS
    if not ACTOR_PATTERN.fullmatch(user):
        return None
    host = request.client.host if request.client else "unknown"
    return f"{user}@{host}"


def created(comment: dict[str, Any]) -> Response:
    answer = CompactJSONResponse(comment, status_code=201)
    answer.headers["Location"] = f"/videos/{comment['video_id']}/comments/{comment['id']}"
    return answer


def ladder_routes(data: AsgiSiteData) -> list[Route]:
    async def string(request: Request) -> Response:
        return Response(HELLO_BYTES, media_type=TEXT)

    async def orm(request: Request) -> Response:
        return Response((await data.hello_value()).encode(), media_type=TEXT)

    async def template(request: Request) -> Response:
        return Response(await data.hello_page(), media_type=HTML)

    routes = [
        Route(STRING.path, string, methods=["GET"]),
        Route(ORM.path, orm, methods=["GET"]),
        Route(TEMPLATE.path, template, methods=["GET"]),
    ]
    if (client := data.upstream) is not None:

        async def upstream(request: Request) -> Response:
            return Response(await client.get(), media_type=TEXT)

        routes.append(Route(UPSTREAM.path, upstream, methods=["GET"]))
    return routes


def site_routes(site: Site) -> list[Route]:
    async def page(request: Request) -> Response:
        body = await site.video_page(PAGE_VIDEO_PRETTYID)
        if body is None:
            raise MissingRungDataError(f"the site's video {PAGE_VIDEO_PRETTYID}")
        return Response(body, media_type=HTML)

    async def cached_page(request: Request) -> Response:
        ref = request.path_params["ref"]
        kept = await site.cached_page(ref, request.url.path)
        if kept is None:
            return problem(404, "not found", [f"no video {ref}"])
        return Response(kept.body, media_type=kept.content_type, headers={"ETag": kept.etag})

    async def post_comment(request: Request) -> Response:
        ref = request.path_params["ref"]
        if request.headers.get("content-type", "").partition(";")[0].strip() != JSON:
            return problem(415, "not JSON", [f"the body must be {JSON}"])
        body = await request.body()
        if len(body) > MAX_BODY_BYTES:
            return problem(413, "too large", [f"at most {MAX_BODY_BYTES} bytes"])
        try:
            fields = parse_json(body)
        except (ValueError, UnicodeDecodeError) as error:
            return problem(400, "the body is not JSON", [str(error)])
        found = schemas.problems(schemas.COMMENT_INPUT, fields)
        actor = actor_of(request)
        if actor is None:
            found.append(f"{ACTOR_HEADER}: 1 to 64 of A-Z a-z 0-9 . _ @ + -")
        if found or actor is None:
            return problem(422, "invalid", found)
        comment = await site.add_comment(ref, fields, actor)
        if comment is None:
            return problem(404, "not found", [f"no video {ref}"])
        return created(comment)

    return [
        Route(PAGE.path, page, methods=["GET"]),
        Route("/v/{ref}", cached_page, methods=["GET"]),
        Route("/videos/{ref}/comments", post_comment, methods=["POST"]),
    ]


def create_app(config: AppConfig | None = None) -> Starlette:
    data = AsgiSiteData(config or AppConfig.from_env())
    routes = ladder_routes(data)
    if data.site is not None:
        routes += site_routes(data.site)
    # The body capped before Starlette reads it (see body_limit).
    return Starlette(routes=routes, lifespan=closing(data), middleware=[Middleware(LimitedAsgi)])


def closing(data: AsgiSiteData) -> Callable[[Starlette], AbstractAsyncContextManager[None]]:
    """The application's lifespan: its engines' connections closed when the server stops."""

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        yield
        await data.close()

    return lifespan
