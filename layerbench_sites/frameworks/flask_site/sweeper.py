"""The Flask application's page sweeper: SQLAlchemy's session events. Each flush notes the page
families of the videos and comments it wrote (a comment's are its video's, under each of the
video's names); once the transaction has committed, those families are swept; a rollback
forgets them. No view sweeps by hand."""

from collections.abc import Iterable

from sqlalchemy import event
from sqlalchemy.orm import Session, UOWTransaction, sessionmaker

from layerbench_sites.app.api.page_cache import PageCache, video_family
from layerbench_sites.frameworks.site_models import Comment, Video

WRITTEN_FAMILIES = "flask_written_families"


def families_of(objects: Iterable[object]) -> set[str]:
    """The page families that show these rows."""
    families: set[str] = set()
    for written in objects:
        video = written.video if isinstance(written, Comment) else written
        if isinstance(video, Video):
            names = [video.id] if video.prettyid is None else [video.id, video.prettyid]
            families |= {video_family(name) for name in names}
    return families


class PageSweeper:
    """Sweeps ``pages`` after each committed transaction of the sessions it is installed on."""

    def __init__(self, pages: PageCache) -> None:
        self.pages = pages

    def install(self, sessions: "sessionmaker[Session]") -> None:
        event.listen(sessions, "after_flush", self.note)
        event.listen(sessions, "after_commit", self.sweep)
        event.listen(sessions, "after_rollback", self.forget)

    @staticmethod
    def note(session: Session, flush: UOWTransaction) -> None:
        written = families_of([*session.new, *session.dirty, *session.deleted])
        session.info.setdefault(WRITTEN_FAMILIES, set()).update(written)

    def sweep(self, session: Session) -> None:
        families: set[str] = session.info.pop(WRITTEN_FAMILIES, set())
        if families:
            self.pages.sweep(families)

    @staticmethod
    def forget(session: Session) -> None:
        session.info.pop(WRITTEN_FAMILIES, None)
