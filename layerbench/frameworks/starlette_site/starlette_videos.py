"""The site's videos and comments through async SQLAlchemy: a video by its short id or pretty
id, its comments in the order they were written (the audit history's), and a comment written
as the data layer writes one (a fresh numid and its short id, the acting user named to the
audit triggers, the transaction run again on an id collision or a deadlock, the page cache
swept after the commit). The models are the SQLAlchemy mapping of the project's tables that
the Flask site uses (plain SQLAlchemy: nothing of Flask in them)."""

from typing import Any

from sqlalchemy import Connection, func, select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from layerbench.app.videos import REF_PATTERN, short_id_number
from layerbench.datalayer.dialect import Dialect
from layerbench.datalayer.retried import run_retried_async, wrapped_driver_error
from layerbench.frameworks.site_models import HISTORY, Comment, Hello, Video
from layerbench.frameworks.starlette_site.starlette_sweeper import AsyncSweeper
from layerbench.ids.codec import encode
from layerbench.ids.generate import new_number
from layerbench.rungs.rung_data import HELLO_ID, MissingRungDataError

Row = dict[str, Any]
COMMENTS_SHOWN = 100


async def hello_row(session: AsyncSession) -> Hello:
    row = await session.get(Hello, HELLO_ID)
    if row is None:
        raise MissingRungDataError(f"row {HELLO_ID} of table hello")
    return row


async def find_video(session: AsyncSession, ref: str) -> Video | None:
    """The video ``ref`` names by short id, else pretty id; None when none does."""
    if short_id_number(ref) is not None:
        return (await session.scalars(select(Video).where(Video.id == ref))).first()
    if not REF_PATTERN.fullmatch(ref):
        return None
    return (await session.scalars(select(Video).where(Video.prettyid == ref))).first()


async def comments_of(session: AsyncSession, video: Video) -> list[Comment]:
    """The video's first comments, in the order they were written (the audit history's)."""
    written = (
        select(func.min(HISTORY.c.seq))
        .where(HISTORY.c.table_name == "comments", HISTORY.c.row_key == Comment.id)
        .scalar_subquery()
    )
    query = (
        select(Comment)
        .where(Comment.video_numid == video.numid)
        .order_by(written, Comment.id)
        .limit(COMMENTS_SHOWN)
    )
    return list(await session.scalars(query))


def comment_json(comment: Comment, video: Video) -> Row:
    """A comment in the API's field names, as the bare application answers it."""
    return {
        "id": comment.id,
        "video_id": video.id,
        "name": comment.author,
        "url": comment.author_url,
        "email": comment.author_email,
        "body": comment.body,
    }


class DriverCursor:
    """A connection as the data layer's dialect uses a cursor (its statements in the driver's
    own parameter style), inside ``run_sync``."""

    def __init__(self, connection: Connection) -> None:
        self.connection = connection

    def execute(self, sql: str, parameters: tuple[Any, ...] = ()) -> None:
        self.connection.exec_driver_sql(sql, parameters)


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
                numid = new_number()
                comment = Comment(
                    numid=dialect.to_stored(numid),
                    id=encode(numid),
                    prettyid=None,
                    video=video,
                    author=fields["name"],
                    body=fields["body"],
                    author_url=fields.get("url"),
                    author_email=fields.get("email"),
                )
                session.add(comment)
                await session.flush()
                await connection.run_sync(lambda c: dialect.clear_actor(DriverCursor(c)))
            except BaseException:
                # A session variable (MariaDB's actor) outlives a rollback: not used again.
                await connection.invalidate()
                raise
            await self.sweeper.commit(session)
            return comment_json(comment, video)
