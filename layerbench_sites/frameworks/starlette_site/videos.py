"""The site's videos and comments through async SQLAlchemy: a video by its short id or pretty
id, its comments in the order they were written (the audit history's), and a comment written
as the data layer writes one (a fresh numid and its short id, the acting user named to the
audit triggers, the transaction run again on an id collision or a deadlock, the page cache
swept after the commit). The models and statements are those the Flask and Pyramid sites use
too (:mod:`layerbench_sites.frameworks.site_orm`), awaited."""

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from layerbench.rungs.rung_data import HELLO_ID, MissingRungDataError
from layerbench_sites.app.api.pages import COMMENTS_SHOWN
from layerbench_sites.datalayer.dialect import Dialect
from layerbench_sites.datalayer.retried import run_retried_async, wrapped_driver_error
from layerbench_sites.frameworks.site_models import Comment, Hello, Video
from layerbench_sites.frameworks.site_orm import (
    DriverCursor,
    Row,
    comment_json,
    comments_query,
    new_comment,
    video_query,
)
from layerbench_sites.frameworks.starlette_site.sweeper import AsyncSweeper


async def hello_row(session: AsyncSession) -> Hello:
    row = await session.get(Hello, HELLO_ID)
    if row is None:
        raise MissingRungDataError(f"row {HELLO_ID} of table hello")
    return row


async def find_video(session: AsyncSession, ref: str) -> Video | None:
    """The video ``ref`` names by short id, else pretty id; None when none does."""
    query = video_query(ref)
    return None if query is None else (await session.scalars(query)).first()


async def comments_of(session: AsyncSession, video: Video) -> list[Comment]:
    """The video's first comments, in the order they were written (the audit history's)."""
    return list(await session.scalars(comments_query(video, COMMENTS_SHOWN)))


class CommentWriter:
    """Writes comments on the site's database (sessions that keep their objects past a
    commit, ``expire_on_commit=False``) and sweeps the page cache after each."""

    def __init__(
        self, sessions: async_sessionmaker[AsyncSession], dialect: Dialect, sweeper: AsyncSweeper
    ) -> None:
        self.sessions = sessions
        self.dialect = dialect
        self.sweeper = sweeper

    async def add(self, ref: str, fields: Row, actor: str) -> Row | None:
        """The comment written on the video ``ref`` names; None when there is no such video."""
        return await run_retried_async(
            self.dialect,
            lambda: self._add_once(ref, fields, actor),
            driver_error=wrapped_driver_error,
        )

    async def _add_once(self, ref: str, fields: Row, actor: str) -> Row | None:
        dialect = self.dialect
        async with self.sessions() as session:
            video = await find_video(session, ref)
            if video is None:
                return None
            connection = await session.connection()
            try:
                await connection.run_sync(lambda c: dialect.set_actor(DriverCursor(c), actor))
                comment = new_comment(dialect, video, fields)
                session.add(comment)
                await session.flush()
                await connection.run_sync(lambda c: dialect.clear_actor(DriverCursor(c)))
            except BaseException:
                # A session variable (MariaDB's actor) outlives a rollback: not used again.
                await connection.invalidate()
                raise
            await self.sweeper.commit(session)
            return comment_json(comment, video)
