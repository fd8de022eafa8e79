"""What the Flask, Pyramid and Starlette sites do alike with :mod:`site_models`, each running
it in its own idiom (a session, an async session): the statements that find a video by short id
or pretty id (as :class:`layerbench_sites.app.videos.Catalog` does) and its comments in the order
they were written, a new comment's row as the data layer writes one (a fresh numid, its short
id, no pretty id), a comment as the API gives it, and the dialect's cursor on a connection."""

from typing import Any

from sqlalchemy import Connection, Select, func, select

from layerbench_sites.app.videos import REF_PATTERN, short_id_number
from layerbench_sites.datalayer.dialect import Dialect
from layerbench_sites.frameworks.site_models import HISTORY, Comment, Video
from layerbench_sites.ids.codec import encode
from layerbench_sites.ids.generate import new_number

Row = dict[str, Any]


def video_query(ref: str) -> Select[Video] | None:
    """The video ``ref`` names, by short id, else pretty id; None when it can name none."""
    if short_id_number(ref) is not None:
        return select(Video).where(Video.id == ref)
    if not REF_PATTERN.fullmatch(ref):
        return None
    return select(Video).where(Video.prettyid == ref)


def comments_query(video: Video, limit: int) -> Select[Comment]:
    """The video's first ``limit`` comments, in the order they were written (the audit
    history's), then by id."""
    written = (
        select(func.min(HISTORY.c.seq))
        .where(HISTORY.c.table_name == "comments", HISTORY.c.row_key == Comment.id)
        .scalar_subquery()
    )
    return (
        select(Comment)
        .where(Comment.video_numid == video.numid)
        .order_by(written, Comment.id)
        .limit(limit)
    )


def new_comment(dialect: Dialect, video: Video, fields: Row) -> Comment:
    """A comment on ``video`` with the API's ``fields``, under a fresh numid (as stored)."""
    numid = new_number()
    return Comment(
        numid=dialect.to_stored(numid),
        id=encode(numid),
        prettyid=None,
        video=video,
        author=fields["name"],
        body=fields["body"],
        author_url=fields.get("url"),
        author_email=fields.get("email"),
    )


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
    own parameter style); for an async session's, inside ``run_sync``."""

    def __init__(self, connection: Connection) -> None:
        self.connection = connection

    def execute(self, sql: str, parameters: tuple[Any, ...] = ()) -> None:
        self.connection.exec_driver_sql(sql, parameters)
