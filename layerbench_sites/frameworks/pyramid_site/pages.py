"""The Pyramid site's video page (Chameleon): built on every request at the page rung's path,
and at ``/v/{ref}`` through the page cache (:mod:`layerbench_sites.app.api.page_cache`), which the
site's sweeper expires after a write."""

from collections.abc import Callable
from typing import Any

from pyramid.renderers import render  # type: ignore[import-untyped]
from pyramid.response import Response  # type: ignore[import-untyped]
from sqlalchemy.orm import Session

from layerbench.rungs.rung_data import PAGE_VIDEO_PRETTYID
from layerbench_sites.app.api.page_cache import CachedPage, PageCache, etag_of, video_family
from layerbench_sites.app.api.pages import COMMENTS_SHOWN, HTML
from layerbench_sites.frameworks.pyramid_site.lookup import comments_of, find_video
from layerbench_sites.frameworks.pyramid_site.views import text

VIDEO_TEMPLATE = "layerbench_sites.frameworks.pyramid_site:templates/video.pt"


class VideoPages:
    def __init__(self, sessions: Callable[[], Session], pages: PageCache) -> None:
        self.sessions = sessions
        self.pages = pages

    def page(self, request: Any) -> Any:
        """The page rung: the page video's page, built."""
        return self._answer(self._build(request, PAGE_VIDEO_PRETTYID))

    def cached_page(self, request: Any) -> Any:
        ref = request.matchdict["ref"]
        # A query the page does not know is never kept (no client makes pages without end).
        query = None if request.query_string else ""
        lookup = self.pages.lookup(video_family(ref), request.path, query, shareable=True)
        if lookup.page is not None:
            return self._answer(lookup.page)
        page = self._build(request, ref)
        if page is not None:
            self.pages.keep(lookup, page)
        return self._answer(page)

    def _build(self, request: Any, ref: str) -> CachedPage | None:
        with self.sessions() as session:
            video = find_video(session, ref)
            if video is None:
                return None
            comments, total = comments_of(session, video, COMMENTS_SHOWN)
            values = {"video": video, "comments": comments, "total": total}
            body = render(VIDEO_TEMPLATE, values, request).encode()
        return CachedPage(body, HTML, etag_of(body))

    @staticmethod
    def _answer(page: CachedPage | None) -> Any:
        if page is None:
            return text(b"no such video", 404)
        response = Response(body=page.body)
        response.content_type = page.content_type.partition(";")[0]
        response.charset = "utf-8"
        response.etag = page.etag.strip('"')
        return response
