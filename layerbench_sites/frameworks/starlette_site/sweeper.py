"""The ASGI sites' page sweeper: each flush of a site session notes the page families of the
videos and comments it wrote (SQLAlchemy's ``after_flush`` on the sessions' own class; a
comment's families are its video's, under each of the video's names); ``commit`` commits and
then sweeps those families, awaiting the async cache; a rollback forgets them. No view sweeps
by hand."""

from sqlalchemy import event
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import Session, UOWTransaction

from layerbench_sites.frameworks.flask_site.sweeper import families_of
from layerbench_sites.frameworks.starlette_site.page_cache import AsyncPageCache

WRITTEN_FAMILIES = "asgi_written_families"


class SiteSession(Session):
    """The sync session under the sites' AsyncSession: the class the sweeper listens on."""


def _note(session: Session, flush: UOWTransaction) -> None:
    written = families_of([*session.new, *session.dirty, *session.deleted])
    session.info.setdefault(WRITTEN_FAMILIES, set()).update(written)


def _forget(session: Session) -> None:
    session.info.pop(WRITTEN_FAMILIES, None)


event.listen(SiteSession, "after_flush", _note)
event.listen(SiteSession, "after_rollback", _forget)


class AsyncSweeper:
    """Commits a site session, then sweeps ``pages`` of what it wrote."""

    def __init__(self, pages: AsyncPageCache) -> None:
        self.pages = pages

    async def commit(self, session: AsyncSession) -> None:
        await session.commit()
        families: set[str] = session.sync_session.info.pop(WRITTEN_FAMILIES, set())
        if families:
            await self.pages.sweep(families)
