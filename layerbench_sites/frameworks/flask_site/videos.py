"""The site's videos and comments through the Flask application's models: a video by its short
id or pretty id, its comments in the order they were written, and a comment written as the
data layer writes one (a fresh numid and its short id, the acting user named to the audit
triggers, the transaction run again on an id collision or a deadlock)."""

from collections.abc import Iterator
from contextlib import contextmanager

from sqlalchemy.orm import Session, sessionmaker

from layerbench_sites.app.api.pages import COMMENTS_SHOWN
from layerbench_sites.datalayer.dialect import Dialect
from layerbench_sites.datalayer.retried import run_retried, wrapped_driver_error
from layerbench_sites.frameworks.site_models import Comment, Video
from layerbench_sites.frameworks.site_orm import (
    DriverCursor,
    Row,
    comment_json,
    comments_query,
    new_comment,
    video_query,
)


def find_video(session: Session, ref: str) -> Video | None:
    """The video ``ref`` names by short id, else pretty id; None when none does."""
    query = video_query(ref)
    return None if query is None else session.scalars(query).first()


def comments_of(session: Session, video: Video) -> list[Comment]:
    """The video's first comments, in the order they were written (the audit history's)."""
    return list(session.scalars(comments_query(video, COMMENTS_SHOWN)))


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
            comment = new_comment(dialect, video, fields)
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
