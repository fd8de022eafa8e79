"""The seed's demo site's fields: a video's description, a commenter's url and email.

Revision ID: 0002
Revises: 0001
"""

from alembic import context

from layerbench_sites.datalayer.entities import COMMENTS, COMMENTS_V2, VIDEOS, VIDEOS_V2
from layerbench_sites.datalayer.migrations import dialects

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None

CHANGES = ((VIDEOS, VIDEOS_V2), (COMMENTS, COMMENTS_V2))


def upgrade() -> None:
    audit = bool(context.config.attributes.get("audit", True))
    for before, after in CHANGES:
        dialects.add_columns(before, after, audit=audit)


def downgrade() -> None:
    audit = bool(context.config.attributes.get("audit", True))
    for before, after in CHANGES:
        dialects.drop_columns(after, before, audit=audit)
