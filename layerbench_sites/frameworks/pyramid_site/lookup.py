"""Finding a video through the Pyramid site's models, by short id or else pretty id (as
:class:`layerbench_sites.app.videos.Catalog` does), and its comments in the order they were
written."""

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from layerbench_sites.frameworks.site_models import Comment, Video
from layerbench_sites.frameworks.site_orm import comments_query, video_query


def find_video(session: Session, ref: str) -> Video | None:
    query = video_query(ref)
    return None if query is None else session.scalars(query).one_or_none()


def comments_of(session: Session, video: Video, limit: int) -> tuple[list[Comment], int]:
    """The video's first ``limit`` comments, and how many it has."""
    of_video = Comment.video_numid == video.numid
    total = session.scalar(select(func.count()).select_from(Comment).where(of_video)) or 0
    shown = session.scalars(comments_query(video, limit))
    return list(shown), int(total)
