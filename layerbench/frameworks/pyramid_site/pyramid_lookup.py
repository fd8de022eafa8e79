"""Finding a video through the Pyramid site's models, by short id or else pretty id (as
:class:`layerbench.app.videos.Catalog` does), and its comments in the order they were
written."""

from sqlalchemy import func, select, text
from sqlalchemy.orm import Session

from layerbench.app.videos import REF_PATTERN, short_id_number
from layerbench.frameworks.site_models import Comment, Video

# In the order they were written: the audit history has it.
WRITTEN_ORDER = text(
    "(SELECT min(h.seq) FROM history h WHERE h.table_name = 'comments' AND h.row_key = comments.id)"
)


def find_video(session: Session, ref: str) -> Video | None:
    if short_id_number(ref) is not None:
        return session.scalars(select(Video).where(Video.id == ref)).one_or_none()
    if not REF_PATTERN.fullmatch(ref):
        return None
    return session.scalars(select(Video).where(Video.prettyid == ref)).one_or_none()


def comments_of(session: Session, video: Video, limit: int) -> tuple[list[Comment], int]:
    """The video's first ``limit`` comments, and how many it has."""
    of_video = Comment.video_numid == video.numid
    total = session.scalar(select(func.count()).select_from(Comment).where(of_video)) or 0
    shown = session.scalars(
        select(Comment).where(of_video).order_by(WRITTEN_ORDER, Comment.id).limit(limit)
    )
    return list(shown), int(total)
