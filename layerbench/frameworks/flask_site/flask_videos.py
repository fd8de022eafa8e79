"""The site's videos and comments through the Flask application's models: a video by its short
id or pretty id, its comments in the order they were written, and a comment written as the
data layer writes one (a fresh numid and its short id, the acting user named to the audit
triggers, the transaction run again on an id collision or a deadlock)."""

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from sqlalchemy import Connection, func, select
from sqlalchemy.orm import Session, sessionmaker

from layerbench.app.videos import REF_PATTERN, short_id_number
from layerbench.datalayer.dialect import Dialect
from layerbench.datalayer.retried import run_retried, wrapped_driver_error
from layerbench.frameworks.site_models import HISTORY, Comment, Video
from layerbench.ids.codec import encode
from layerbench.ids.generate import new_number

Row = dict[str, Any]
COMMENTS_SHOWN = 100


def find_video(session: Session, ref: str) -> Video | None:
    """The video ``ref`` names by short id, else pretty id; None when none does."""
    if short_id_number(ref) is not None:
        return session.scalars(select(Video).where(Video.id == ref)).first()
    if not REF_PATTERN.fullmatch(ref):
        return None
    return session.scalars(select(Video).where(Video.prettyid == ref)).first()


def comments_of(session: Session, video: Video) -> list[Comment]:
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
    return list(session.scalars(query))


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
    """A session's connection as the data layer's dialect uses a cursor (its statements in
    the driver's own parameter style)."""

    def __init__(self, connection: Connection) -> None:
        self.connection = connection

    def execute(self, sql: str, parameters: tuple[Any, ...] = ()) -> None:
        self.connection.exec_driver_sql(sql, parameters)


def add_comment(
    sessions: "sessionmaker[Session]", dialect: Dialect, ref: str, fields: Row, actor: str
) -> Row | None:
    """Writes a comment on the video ``ref`` names and returns it; None when there is no such
    video. ``sessions`` keep their objects past a commit (``expire_on_commit=False``). Run
    again from its start on an id collision or a transaction given up for another, a bounded
    number of times (as the data layer's repository)."""
    return run_retried(
        dialect,
        lambda: _add_comment_once(sessions, dialect, ref, fields, actor),
        driver_error=wrapped_driver_error,
    )


def _add_comment_once(
    sessions: "sessionmaker[Session]", dialect: Dialect, ref: str, fields: Row, actor: str
) -> Row | None:
    with sessions() as session:
        video = find_video(session, ref)
        if video is None:
            return None
        with _actor_named(session, dialect, actor):
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
            session.flush()
        session.commit()
        return comment_json(comment, video)


@contextmanager
def _actor_named(session: Session, dialect: Dialect, actor: str) -> Iterator[None]:
    """The block's writes attributed to ``actor`` by the audit triggers. A failed write's
    connection is not used again: a session variable (MariaDB's actor) outlives a rollback."""
    connection = session.connection()
    cursor = DriverCursor(connection)
    try:
        dialect.set_actor(cursor, actor)
        yield
        dialect.clear_actor(cursor)
    except BaseException:
        connection.invalidate()
        raise
