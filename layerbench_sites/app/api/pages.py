"""The demo site's HTML pages (Jinja2, every value escaped): the video list, a video with its
comments and a form to post one (CSRF-protected). Pages go through the same page cache as the
API's JSON, swept by the same sweeper; the form's token is filled in per browser after the
cache."""

from typing import Any
from urllib.parse import parse_qs

import falcon
from jinja2 import Environment

from layerbench.site_contract import MAX_BODY_BYTES
from layerbench_sites.app.api import schemas
from layerbench_sites.app.api.csrf import CsrfGuard
from layerbench_sites.app.api.http import (
    ApiError,
    Context,
    Renderer,
    actor,
    media_type,
    paging,
    read_body,
)
from layerbench_sites.app.api.page_cache import video_family
from layerbench_sites.datalayer.repository import NotFoundError

HTML = "text/html; charset=utf-8"
FORM = "application/x-www-form-urlencoded"
# Where the form's token goes: escaped text never contains '<', so no user text can be it.
CSRF_MARKER = b"<!--csrf-token-->"
COMMENTS_SHOWN = 100
FORM_FIELDS = ("csrf_token", "name", "url", "email", "body")


class Pages:
    """What the page resources share: the templates and the CSRF guard."""

    def __init__(self, context: Context, templates: Environment, csrf: CsrfGuard) -> None:
        self.context = context
        self.templates = templates
        self.csrf = csrf

    def renderer(self, template: str) -> Renderer:
        def render(values: dict[str, Any]) -> tuple[bytes, str]:
            body = self.templates.get_template(template).render(
                csrf_marker=CSRF_MARKER.decode(), **values
            )
            return body.encode(), HTML

        return render

    def problem(
        self, resp: falcon.Response, status: str, title: str, errors: list[str], back: str = "/"
    ) -> None:
        resp.status = status
        resp.content_type = HTML
        resp.data = (
            self.templates.get_template("site/problem.html")
            .render(title=title, errors=errors, back=back)
            .encode()
        )


class IndexPage:
    def __init__(self, pages: Pages) -> None:
        self.pages = pages

    def on_get(self, req: falcon.Request, resp: falcon.Response) -> None:
        try:
            offset, limit = paging(req)
        except ApiError as error:
            self.pages.problem(resp, falcon.HTTP_422, "invalid paging", error.errors)
            return
        catalog = req.context.catalog

        def build() -> dict[str, Any]:
            page = catalog.videos(offset, limit)
            following = offset + limit if offset + limit < page.total else None
            return {"page": page, "tag": None, "next_offset": following}

        self.pages.context.cached(
            req,
            resp,
            "videos",
            build,
            params={"offset": offset, "limit": limit},
            render=self.pages.renderer("site/videos.html"),
        )

    on_head = on_get


class VideoPage:
    def __init__(self, pages: Pages) -> None:
        self.pages = pages

    def on_get(self, req: falcon.Request, resp: falcon.Response, ref: str) -> None:
        catalog = req.context.catalog
        token = self.pages.csrf.token(self.pages.csrf.session(req, resp)).encode()

        def build() -> dict[str, Any]:
            return {
                "video": catalog.video(ref),
                "comments": catalog.comments(ref, 0, COMMENTS_SHOWN),
            }

        try:
            self.pages.context.cached(
                req,
                resp,
                video_family(ref),
                build,
                render=self.pages.renderer("site/video.html"),
                finish=lambda body: body.replace(CSRF_MARKER, token, 1),
            )
        except NotFoundError as error:
            self.pages.problem(resp, falcon.HTTP_404, "not found", [str(error)])
        # The page carries a per-browser token: shared caches must not keep it.
        resp.cache_control = ["private"]

    on_head = on_get


class CommentForm:
    """``POST /v/{ref}/comments`` from the video page's form: 303 back to the page."""

    def __init__(self, pages: Pages) -> None:
        self.pages = pages

    def on_post(self, req: falcon.Request, resp: falcon.Response, ref: str) -> None:
        back = f"/v/{ref}"
        form = self._read_form(req, resp, back)
        if form is None:
            return
        if not self.pages.csrf.check(req, form.get("csrf_token")):
            self.pages.problem(
                resp,
                falcon.HTTP_403,
                "the form could not be accepted",
                ["it has expired or did not come from this site: reload the page, post again"],
                back,
            )
            return
        fields: dict[str, Any] = {"name": form.get("name", ""), "body": form.get("body", "")}
        for name in ("url", "email"):
            if form.get(name):
                fields[name] = form[name]
        found = schemas.problems(schemas.COMMENT_INPUT, fields)
        if found:
            self.pages.problem(resp, falcon.HTTP_422, "the comment was not posted", found, back)
            return
        catalog = req.context.catalog
        try:
            video = catalog.video(ref)
            comment = catalog.create_comment(video["id"], fields, actor(req))
        except NotFoundError as error:
            self.pages.problem(resp, falcon.HTTP_404, "not found", [str(error)])
            return
        resp.status = falcon.HTTP_303
        resp.location = f"/v/{video['id']}#c-{comment['id']}"

    def _read_form(
        self, req: falcon.Request, resp: falcon.Response, back: str
    ) -> dict[str, str] | None:
        """The form's fields (one value each), or ``None`` once a problem page is answered."""
        if media_type(req) != FORM:
            self.pages.problem(
                resp, falcon.HTTP_415, "not a form", [f"the body must be {FORM}"], back
            )
            return None
        raw = read_body(req)
        if raw is None:
            self.pages.problem(
                resp, falcon.HTTP_413, "too long", [f"over {MAX_BODY_BYTES} bytes"], back
            )
            return None
        try:
            parsed = parse_qs(
                raw.decode("utf-8"),
                keep_blank_values=True,
                errors="strict",
                max_num_fields=len(FORM_FIELDS) * 2,
            )
        except (UnicodeDecodeError, ValueError) as error:
            self.pages.problem(resp, falcon.HTTP_400, "a form that cannot be read", [str(error)])
            return None
        unknown = sorted(set(parsed) - set(FORM_FIELDS))
        repeated = sorted(name for name, values in parsed.items() if len(values) > 1)
        if unknown or repeated:
            errors = [f"{name}: not a field of this form" for name in unknown]
            errors += [f"{name}: given more than once" for name in repeated]
            self.pages.problem(resp, falcon.HTTP_422, "the comment was not posted", errors, back)
            return None
        # Browsers send text areas' line ends as CRLF.
        return {name: values[0].replace("\r\n", "\n") for name, values in parsed.items()}
