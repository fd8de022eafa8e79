"""A video's url is optional: a video may be only a title.

PostgreSQL and MariaDB drop the column's NOT NULL in place; SQLite rebuilds the table (its
triggers and indexes kept). Back down, every video needs a url again: a video without one is
refused in one line, before anything changes.

Revision ID: 0004
Revises: 0003
"""

from alembic import op

from layerbench_sites.datalayer.entities import VIDEOS_V2, VIDEOS_V3
from layerbench_sites.datalayer.migrations import dialects

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


class VideosWithoutUrlError(RuntimeError):
    pass


def upgrade() -> None:
    dialects.change_nullability(VIDEOS_V2, VIDEOS_V3)


def downgrade() -> None:
    without = op.get_bind().exec_driver_sql("SELECT count(*) FROM videos WHERE url IS NULL")
    count = int(without.scalar_one())
    if count:
        videos = "1 video has" if count == 1 else f"{count} videos have"
        raise VideosWithoutUrlError(
            f"{videos} no url, which revision 0003 requires: give them one, or delete them,"
            " before going below revision 0004"
        )
    dialects.change_nullability(VIDEOS_V3, VIDEOS_V2)
