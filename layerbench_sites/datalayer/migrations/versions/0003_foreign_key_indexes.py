"""Indexes on the foreign keys the site looks up by: a video's comments, a tag's videos.

The page of a video counted and listed its comments by scanning every comment (SQLite and
PostgreSQL index a foreign key only when told to; InnoDB makes one for each, so MariaDB needs
nothing): the ladder's page rung slowed by half as its write rung added comments to another
video.

Revision ID: 0003
Revises: 0002
"""

from alembic import op

from layerbench_sites.datalayer.migrations import dialects

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None

INDEXES = (
    ("comments_by_video", "comments", "video_numid"),
    ("video_tags_by_tag", "video_tags", "tag_numid"),
)


def _needed() -> bool:
    return op.get_bind().dialect.name in ("sqlite", "postgresql")


def upgrade() -> None:
    if _needed():
        dialects.run(
            [f"CREATE INDEX {name} ON {table} ({column})" for name, table, column in INDEXES]
        )


def downgrade() -> None:
    if _needed():
        dialects.run([f"DROP INDEX {name}" for name, _, _ in INDEXES])
