"""The API's resources: each GET through the page cache, each write a transaction of the
catalog (whose repository's sweeper expires the pages it changed once it has committed)."""

from typing import Any

import falcon

from layerbench_sites.app.api import schemas
from layerbench_sites.app.api.http import (
    ApiError,
    Context,
    actor,
    answer,
    invalid,
    next_url,
    not_found,
    paging,
    read_json,
    require_json_if_any_body,
)
from layerbench_sites.app.api.moments import parse_moment
from layerbench_sites.app.api.page_cache import video_family
from layerbench_sites.app.videos import Page, short_id_number
from layerbench_sites.datalayer.changes import Change
from layerbench_sites.datalayer.repository import NotFoundError


def page_document(req: falcon.Request, page: Page, offset: int, limit: int) -> dict[str, Any]:
    return {
        "items": page.items,
        "total": page.total,
        "offset": offset,
        "limit": limit,
        "next": next_url(req, offset, limit, page.total),
    }


class Base:
    def __init__(self, context: Context) -> None:
        self.context = context

    def found(self, work: Any, *args: Any) -> Any:
        try:
            return work(*args)
        except NotFoundError as error:
            raise not_found(str(error)) from None


class Videos(Base):
    def on_get(self, req: falcon.Request, resp: falcon.Response) -> None:
        offset, limit = paging(req)
        tag = req.get_param("tag")
        if tag is not None and schemas.problems(schemas.TAG_NAME, tag, "tag"):
            raise invalid(schemas.problems(schemas.TAG_NAME, tag, "tag"))
        catalog = req.context.catalog
        self.context.cached(
            req,
            resp,
            "videos",
            lambda: page_document(
                req, self.found(catalog.videos, offset, limit, tag), offset, limit
            ),
            params={"offset": offset, "limit": limit, "tag": tag},
        )

    on_head = on_get

    def on_post(self, req: falcon.Request, resp: falcon.Response) -> None:
        fields = read_json(req, schemas.VIDEO_INPUT)
        catalog = req.context.catalog
        identifier = catalog.create_video(fields, actor(req))
        video = catalog.video(identifier)
        resp.location = f"/videos/{identifier}"
        answer(resp, video, falcon.HTTP_201)


class Video(Base):
    def on_get(self, req: falcon.Request, resp: falcon.Response, ref: str) -> None:
        catalog = req.context.catalog
        self.context.cached(req, resp, video_family(ref), lambda: self.found(catalog.video, ref))

    on_head = on_get

    def on_put(self, req: falcon.Request, resp: falcon.Response, ref: str) -> None:
        if short_id_number(ref) is None:
            raise invalid([f"{ref}: PUT takes a short id (13 characters of 0-9 a-z)"])
        fields = read_json(req, schemas.VIDEO_INPUT)
        catalog = req.context.catalog
        created = catalog.put_video(ref, fields, actor(req))
        video = catalog.video(ref)
        if created:
            resp.location = f"/videos/{ref}"
        answer(resp, video, falcon.HTTP_201 if created else falcon.HTTP_200)

    def on_patch(self, req: falcon.Request, resp: falcon.Response, ref: str) -> None:
        fields = read_json(req, schemas.VIDEO_PATCH)
        if "title" in fields and fields["title"] is None:
            raise invalid(["body.title: required, not null"])
        catalog = req.context.catalog
        identifier = self.found(catalog.update_video, ref, fields, actor(req))
        answer(resp, catalog.video(identifier))

    def on_delete(self, req: falcon.Request, resp: falcon.Response, ref: str) -> None:
        require_json_if_any_body(req)
        self.found(req.context.catalog.delete_video, ref, actor(req))
        resp.status = falcon.HTTP_204


def change_document(change: Change) -> dict[str, Any]:
    return {
        "seq": change.seq,
        "operation": change.operation,
        "at": change.changed_at,
        "actor": change.actor,
        "old": change.old,
        "new": change.new,
    }


class VideoHistory(Base):
    """Not cached: ``as_of`` makes every moment its own page."""

    def on_get(self, req: falcon.Request, resp: falcon.Response, ref: str) -> None:
        catalog = req.context.catalog
        as_of = req.get_param("as_of")
        if as_of is None:
            changes = self.found(catalog.history, ref)
            answer(resp, {"changes": [change_document(c) for c in changes]})
            return
        moment = parse_moment(as_of)
        if moment is None:
            raise invalid(["as_of: an ISO 8601 time, e.g. 2026-11-23T10:00:00+00:00"])
        video = self.found(catalog.video, ref)
        state = catalog.repository.as_of("videos", video["id"], moment)
        if state is None:
            raise not_found(f"video {ref} did not exist at {as_of}")
        answer(resp, {"as_of": as_of, "video": state})

    on_head = on_get


class Comments(Base):
    def on_get(self, req: falcon.Request, resp: falcon.Response, ref: str) -> None:
        offset, limit = paging(req)
        catalog = req.context.catalog
        self.context.cached(
            req,
            resp,
            video_family(ref),
            lambda: page_document(
                req, self.found(catalog.comments, ref, offset, limit), offset, limit
            ),
            params={"offset": offset, "limit": limit},
        )

    on_head = on_get

    def on_post(self, req: falcon.Request, resp: falcon.Response, ref: str) -> None:
        fields = read_json(req, schemas.COMMENT_INPUT)
        catalog = req.context.catalog
        video = self.found(catalog.video, ref)
        comment = self.found(catalog.create_comment, video["id"], fields, actor(req))
        resp.location = f"/videos/{video['id']}/comments/{comment['id']}"
        answer(resp, comment, falcon.HTTP_201)


class Comment(Base):
    def on_get(self, req: falcon.Request, resp: falcon.Response, ref: str, cref: str) -> None:
        catalog = req.context.catalog
        self.context.cached(
            req, resp, video_family(ref), lambda: self.found(catalog.comment, ref, cref)
        )

    on_head = on_get

    def on_put(self, req: falcon.Request, resp: falcon.Response, ref: str, cref: str) -> None:
        if short_id_number(cref) is None:
            raise invalid([f"{cref}: PUT takes a short id (13 characters of 0-9 a-z)"])
        fields = read_json(req, schemas.COMMENT_INPUT)
        catalog = req.context.catalog
        created = self.found(catalog.put_comment, ref, cref, fields, actor(req))
        comment = catalog.comment(ref, cref)
        if created:
            resp.location = f"/videos/{comment['video_id']}/comments/{cref}"
        answer(resp, comment, falcon.HTTP_201 if created else falcon.HTTP_200)

    def on_patch(self, req: falcon.Request, resp: falcon.Response, ref: str, cref: str) -> None:
        fields = read_json(req, schemas.COMMENT_PATCH)
        for name in ("name", "body"):
            if name in fields and fields[name] is None:
                raise invalid([f"body.{name}: required, not null"])
        comment = self.found(req.context.catalog.update_comment, ref, cref, fields, actor(req))
        answer(resp, comment)

    def on_delete(self, req: falcon.Request, resp: falcon.Response, ref: str, cref: str) -> None:
        require_json_if_any_body(req)
        self.found(req.context.catalog.delete_comment, ref, cref, actor(req))
        resp.status = falcon.HTTP_204


class Tags(Base):
    def on_get(self, req: falcon.Request, resp: falcon.Response) -> None:
        catalog = req.context.catalog
        self.context.cached(req, resp, "tags", lambda: {"items": catalog.tags()})

    on_head = on_get


class Tag(Base):
    def on_get(self, req: falcon.Request, resp: falcon.Response, name: str) -> None:
        offset, limit = paging(req)
        catalog = req.context.catalog

        def build() -> dict[str, Any]:
            page = self.found(catalog.videos, offset, limit, name)
            return {"name": name, "videos": page_document(req, page, offset, limit)}

        self.context.cached(req, resp, "tags", build, params={"offset": offset, "limit": limit})

    on_head = on_get


def conflict(error: Exception) -> ApiError:
    return ApiError(falcon.HTTP_409, "the write conflicts with what is stored", [str(error)])
