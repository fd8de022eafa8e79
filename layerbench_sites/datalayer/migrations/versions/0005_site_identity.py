"""The database's identity: one row, a random 128-bit id (32 hex digits) drawn once, when the
schema is made. A database deleted and made again at the same place (a SQLite file at the same
path, a PostgreSQL database of the same name on the same port) is another database: its id
differs, so what was kept for the old one (a page-cache directory's pages) is not taken for its.

The table is not audited (no registry, no history triggers): it is written once, here.

Revision ID: 0005
Revises: 0004
"""

import secrets

from layerbench_sites.datalayer.entities import IDENTITY_TABLE
from layerbench_sites.datalayer.migrations import dialects

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None

IDENTITY_BYTES = 16


def upgrade() -> None:
    dialects.run(
        [
            f"CREATE TABLE {IDENTITY_TABLE} ("
            " single_row INTEGER NOT NULL PRIMARY KEY CHECK (single_row = 1),"
            " id CHAR(32) NOT NULL)",
            f"INSERT INTO {IDENTITY_TABLE} (single_row, id)"
            f" VALUES (1, '{secrets.token_hex(IDENTITY_BYTES)}')",
        ]
    )


def downgrade() -> None:
    # IF EXISTS: SQLite (DDL through the driver's cursor) and MariaDB commit the drop at once,
    # so a downgrade past 0005 that a lower revision refused has dropped it already; run again,
    # it must go on.
    dialects.run([f"DROP TABLE IF EXISTS {IDENTITY_TABLE}"])
