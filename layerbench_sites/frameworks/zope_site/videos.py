"""The site's video page in ZODB: the video the page rungs show and its comments, copied from
the site's database (``$LAYERBENCH_DATABASE_URL``, through the project's catalog) when the
application starts, as persistent objects; ``/v/PRETTYID`` publishes its page from this process's
page cache, rendered by a Zope Page Template from those objects.

Nothing writes them while the application runs (it answers no write rung: a comment is the
site's SQL rows, with their ids and audit history), so a page, once rendered, stays true for the
life of the process; the cache is the process's own, as the FileStorage is (one process).
"""

import threading
from typing import Any

from AccessControl import ClassSecurityInfo  # type: ignore[import-untyped]
from AccessControl.class_init import InitializeClass  # type: ignore[import-untyped]
from BTrees.OOBTree import OOBTree  # type: ignore[import-untyped]
from OFS.SimpleItem import SimpleItem  # type: ignore[import-untyped]
from persistent import Persistent  # type: ignore[import-untyped]
from Products.PageTemplates.PageTemplateFile import (  # type: ignore[import-untyped]
    PageTemplateFile,
)
from zExceptions import NotFound  # type: ignore[import-untyped]

from layerbench.rungs.rung_data import PAGE_VIDEO_COMMENTS, PAGE_VIDEO_PRETTYID
from layerbench_sites.app.app_config import AppConfig
from layerbench_sites.app.videos import Catalog
from layerbench_sites.datalayer.open_repository import open_repository

PAGES_ID = "v"
HTML = "text/html; charset=utf-8"
# More than the seeded comments: every one of them is copied.
COMMENTS_COPIED = 10 * PAGE_VIDEO_COMMENTS


class Comment(Persistent):  # type: ignore[misc]
    __allow_access_to_unprotected_subobjects__ = True

    def __init__(self, comment_id: str, name: str, body: str) -> None:
        self.comment_id = comment_id
        self.name = name
        self.body = body


class Video(Persistent):  # type: ignore[misc]
    __allow_access_to_unprotected_subobjects__ = True

    def __init__(self, row: dict[str, Any], comments: list[Comment]) -> None:
        self.prettyid: str = row["prettyid"]
        self.title: str = row["title"]
        self.url: str | None = row.get("url")
        self.description: str | None = row.get("description")
        self.tags = tuple(row.get("tags") or ())
        self.comments = tuple(comments)

    def fields(self) -> tuple[Any, ...]:
        """What the page shows of it: equal fields, the same page."""
        comments = tuple((c.comment_id, c.name, c.body) for c in self.comments)
        return (self.prettyid, self.title, self.url, self.description, self.tags, comments)


def copy_page_video(config: AppConfig) -> Video | None:
    """The page rungs' video and its comments from the site's database (None without one)."""
    if config.database_url is None:
        return None
    catalog = Catalog(open_repository(config.database_url))
    try:
        row = catalog.video(PAGE_VIDEO_PRETTYID)
        comments = catalog.comments(PAGE_VIDEO_PRETTYID, 0, COMMENTS_COPIED).items
    finally:
        catalog.repository.connection.close()
    return Video(row, [Comment(c["id"], c["name"], c["body"]) for c in comments])


class VideoPages(SimpleItem):  # type: ignore[misc]
    """``/v``: the videos by prettyid; ``/v/PRETTYID`` is the page from the page cache."""

    security = ClassSecurityInfo()
    security.declareObjectPublic()
    _template = PageTemplateFile("templates/video.pt", globals())

    def __init__(self) -> None:
        self.id = PAGES_ID
        self.videos = OOBTree()

    def keep_video(self, video: Video) -> None:
        """Store ``video``, unless it is stored already as it is (a start then writes nothing)."""
        kept: Video | None = self.videos.get(video.prettyid)
        if kept is None or kept.fields() != video.fields():
            self.videos[video.prettyid] = video

    def render(self, prettyid: str) -> str:
        """The page, built now from the objects in ZODB."""
        video: Video | None = self.videos.get(prettyid)
        if video is None:
            raise NotFound(f"no video {prettyid}")
        page: str = self._template(video=video, comments=video.comments)
        return page

    def __bobo_traverse__(self, request: Any, name: str) -> "CachedVideoPage":
        return CachedVideoPage(self, name)


InitializeClass(VideoPages)


class ProcessPageCache:
    """Rendered pages by prettyid, in this process."""

    def __init__(self) -> None:
        self._pages: dict[str, str] = {}
        self._lock = threading.Lock()

    def get(self, prettyid: str) -> str | None:
        with self._lock:
            return self._pages.get(prettyid)

    def keep(self, prettyid: str, page: str) -> None:
        with self._lock:
            self._pages[prettyid] = page


PAGES = ProcessPageCache()


class CachedVideoPage:
    """``/v/PRETTYID``, published: the cached page, rendered once on a miss."""

    __roles__ = None  # public

    def __init__(self, pages: VideoPages, prettyid: str) -> None:
        self._pages = pages
        self._prettyid = prettyid

    def __call__(self, REQUEST: Any) -> str:  # noqa: N803 (Zope passes the request by this name)
        """The video's page from the page cache."""
        page = PAGES.get(self._prettyid)
        if page is None:
            page = self._pages.render(self._prettyid)
            PAGES.keep(self._prettyid, page)
        REQUEST.RESPONSE.setHeader("Content-Type", HTML)
        return page
