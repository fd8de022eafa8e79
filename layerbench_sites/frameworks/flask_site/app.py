"""The Flask application (``create_app``), configured from the environment as the bare one is
(:class:`layerbench_sites.app.app_config.AppConfig`): the ladder's string, orm and template rungs on
the rung data (the upstream rung too, when its URL is set), and the site's video page (built on
every request at ``/ladder/page``, through the page cache at ``/v/<ref>``) and its comments API
(``POST /videos/<ref>/comments``). Without a site database only the ladder's rungs are
answered."""

import json
from typing import Any

from flask import Flask, Response, render_template, request
from sqlalchemy.orm import Session, sessionmaker

from layerbench.rungs.definitions import ORM, PAGE, STRING, TEMPLATE, UPSTREAM
from layerbench.rungs.rung_data import (
    HELLO_ID,
    HELLO_VALUE,
    PAGE_VIDEO_PRETTYID,
    MissingRungDataError,
)
from layerbench.site_contract import MAX_BODY_BYTES
from layerbench_sites.app.api import schemas
from layerbench_sites.app.api.http import ACTOR_HEADER, ACTOR_PATTERN
from layerbench_sites.app.api.json_text import parse_json
from layerbench_sites.app.api.page_cache import CachedPage, PageCache, etag_of, video_family
from layerbench_sites.app.app_config import AppConfig
from layerbench_sites.app.body_limit import limited_wsgi
from layerbench_sites.app.cache_select import cache_from_url, pages_from_url
from layerbench_sites.app.upstream_client import UpstreamClient
from layerbench_sites.frameworks.flask_site.db import (
    dialect_of,
    rung_engine,
    site_engine,
)
from layerbench_sites.frameworks.flask_site.sweeper import PageSweeper
from layerbench_sites.frameworks.flask_site.videos import add_comment, comments_of, find_video
from layerbench_sites.frameworks.site_models import Hello
from layerbench_sites.frameworks.site_templates import (
    HELLO_TEMPLATE,
    JINJA_TEMPLATES,
    VIDEO_TEMPLATE,
)

TEXT = "text/plain; charset=utf-8"
HTML = "text/html; charset=utf-8"
JSON = "application/json"
# Who makes a write when neither the server nor the client names a user.
ANONYMOUS = "anonymous"
HELLO_BYTES = HELLO_VALUE.encode()
HELLO_ROW = f"row {HELLO_ID} of table hello"
PAGE_NAMESPACE = "flask:"


def create_app(config: AppConfig | None = None) -> Flask:
    config = config or AppConfig.from_env()
    app = Flask(__name__, template_folder=JINJA_TEMPLATES)
    app.config["MAX_CONTENT_LENGTH"] = MAX_BODY_BYTES
    # The body capped before Flask reads it, a 413 in the API's words (see body_limit).
    app.wsgi_app = limited_wsgi(app.wsgi_app)  # type: ignore[method-assign, assignment]
    add_ladder(app, sessionmaker(rung_engine(config.orm_url or str(config.db_path))))
    if config.services.upstream:
        add_upstream(app, UpstreamClient(config.services.upstream))
    if config.database_url is not None:
        cache = cache_from_url(config.cache_url, config.cache_max_bytes)
        # Its own keys in a cache it may share with the other applications (ladder --apps).
        pages = pages_from_url(config.cache_url, cache, config.database_url, PAGE_NAMESPACE)
        add_site(app, config.database_url, pages)
    return app


def add_ladder(app: Flask, sessions: "sessionmaker[Session]") -> None:
    def hello(session: Session) -> Hello:
        row = session.get(Hello, HELLO_ID)
        if row is None:
            raise MissingRungDataError(HELLO_ROW)
        return row

    @app.get(STRING.path)
    def string() -> Response:
        return Response(HELLO_BYTES, content_type=TEXT)

    @app.get(ORM.path)
    def orm() -> Response:
        with sessions() as session:
            return Response(hello(session).value.encode(), content_type=TEXT)

    @app.get(TEMPLATE.path)
    def template() -> Response:
        with sessions() as session:
            return Response(
                render_template(HELLO_TEMPLATE, hello=hello(session)), content_type=HTML
            )


def add_upstream(app: Flask, client: UpstreamClient) -> None:
    @app.get(UPSTREAM.path)
    def upstream() -> Response:
        return Response(client.get(), content_type=TEXT)


def add_site(app: Flask, database_url: str, pages: PageCache) -> None:
    engine = site_engine(database_url)
    dialect = dialect_of(engine)
    sessions = sessionmaker(engine, expire_on_commit=False)
    PageSweeper(pages).install(sessions)

    def video_page(ref: str) -> bytes | None:
        with sessions() as session:
            video = find_video(session, ref)
            if video is None:
                return None
            page = render_template(
                VIDEO_TEMPLATE, video=video, comments=comments_of(session, video)
            )
            return page.encode()

    @app.get(PAGE.path)
    def page() -> Response:
        body = video_page(PAGE_VIDEO_PRETTYID)
        if body is None:
            raise MissingRungDataError(f"the site's video {PAGE_VIDEO_PRETTYID}")
        return Response(body, content_type=HTML)

    @app.get("/v/<ref>")
    def cached_page(ref: str) -> Response:
        # The generation is read before the database: a page built before a write's sweep is
        # never served after it.
        query = "" if not request.query_string else None
        lookup = pages.lookup(video_family(ref), request.path, query, shareable=True)
        page = lookup.page
        if page is None:
            body = video_page(ref)
            if body is None:
                return problem(404, "not found", [f"no video {ref}"])
            page = CachedPage(body, HTML, etag_of(body))
            pages.keep(lookup, page)
        return Response(page.body, content_type=page.content_type, headers={"ETag": page.etag})

    @app.post("/videos/<ref>/comments")
    def post_comment(ref: str) -> Response:
        if request.mimetype != JSON:
            return problem(415, "not JSON", [f"the body must be {JSON}"])
        try:
            fields = parse_json(request.get_data())
        except (ValueError, UnicodeDecodeError) as error:
            return problem(400, "the body is not JSON", [str(error)])
        found = schemas.problems(schemas.COMMENT_INPUT, fields)
        user = request.environ.get("REMOTE_USER") or request.headers.get(ACTOR_HEADER) or ANONYMOUS
        if not ACTOR_PATTERN.fullmatch(user):
            found.append(f"{ACTOR_HEADER}: 1 to 64 of A-Z a-z 0-9 . _ @ + -")
        if found:
            return problem(422, "invalid", found)
        comment = add_comment(sessions, dialect, ref, fields, f"{user}@{request.remote_addr}")
        if comment is None:
            return problem(404, "not found", [f"no video {ref}"])
        answer = json_response(comment, 201)
        answer.headers["Location"] = f"/videos/{comment['video_id']}/comments/{comment['id']}"
        return answer


def json_response(document: Any, status: int) -> Response:
    return Response(json.dumps(document, separators=(",", ":")), status=status, content_type=JSON)


def problem(status: int, title: str, errors: list[str]) -> Response:
    return json_response({"title": title, "errors": errors}, status)
