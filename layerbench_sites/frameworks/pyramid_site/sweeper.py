"""The Pyramid site's page sweeper: it watches each site session, notes the videos whose pages a
flush changes (a comment's video, a video itself), and once the transaction has committed
expires exactly their page families (:func:`layerbench_sites.app.api.page_sweeper.families_of`); a
rolled-back transaction sweeps nothing."""

from typing import Any

from sqlalchemy import event
from sqlalchemy.orm import Session

from layerbench_sites.app.api.page_cache import PageCache
from layerbench_sites.app.api.page_sweeper import families_of
from layerbench_sites.datalayer.written import Written
from layerbench_sites.frameworks.site_models import Comment, Video

TOUCHED = "pyramid_touched_videos"


class SessionSweeper:
    def __init__(self, pages: PageCache) -> None:
        self.pages = pages

    def watch(self, session: Session) -> Session:
        """``session``, whose committed writes now sweep the pages they change."""
        session.info[TOUCHED] = set()
        event.listen(session, "before_flush", self._noted)
        event.listen(session, "after_commit", self._swept)
        event.listen(session, "after_rollback", self._forgotten)
        return session

    @staticmethod
    def _noted(session: Session, _context: Any, _instances: Any) -> None:
        touched: set[Written] = session.info[TOUCHED]
        for entity in (*session.new, *session.dirty, *session.deleted):
            video = entity.video if isinstance(entity, Comment) else entity
            if isinstance(video, Video):
                touched.add(Written("videos", video.id, video.prettyid))

    def _swept(self, session: Session) -> None:
        touched: set[Written] = session.info[TOUCHED]
        families = families_of(touched)
        touched.clear()
        if families:
            self.pages.sweep(families)

    @staticmethod
    def _forgotten(session: Session) -> None:
        session.info[TOUCHED].clear()
