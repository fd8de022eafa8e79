"""The first schema: videos, comments, tags and their links; the ids registry and its triggers;
the audit history and its triggers; the short-id codec in SQL where the database has one.

Revision ID: 0001
Revises: (none)
"""

from alembic import context

from layerbench_sites.datalayer.entities import SCHEMA_V1
from layerbench_sites.datalayer.migrations import dialects

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    # Without the audit triggers only to measure what they cost (bench/trigger_cost.py).
    audit = bool(context.config.attributes.get("audit", True))
    dialects.create(SCHEMA_V1, audit=audit)


def downgrade() -> None:
    dialects.drop(SCHEMA_V1)
