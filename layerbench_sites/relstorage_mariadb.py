"""RelStorage 4.3 on MariaDB, worked around in the project (no patched copy of RelStorage).

RelStorage's MySQL adapter takes MariaDB for the MySQL its version number would be:

- history-free: ``requires_values_upsert_alias()`` is true for any version >= 8.0.19, so on
  MariaDB 10.11 it writes MySQL 8's ``INSERT … VALUES (…) AS excluded ON DUPLICATE KEY UPDATE``,
  which MariaDB does not have (SQL error 1064). The adapter takes a version detector:
  :class:`MariadbVersionDetector` answers MariaDB's truth (no alias; and neither MySQL 8's
  ``FOR SHARE NOWAIT`` nor ``@@transaction_isolation``, which MariaDB 10.11 does not have).
- history-preserving: ``object_state`` is created with column-level ``REFERENCES
  "transaction"``, which MySQL parses and ignores but MariaDB (10.5 and later) makes a foreign
  key; and ``object_state.tid`` is ``BIGINT`` while ``transaction.tid`` is ``BIGINT UNSIGNED``,
  so InnoDB refuses that key (errno 150, "Foreign key constraint is incorrectly formed").
  :class:`MariadbSchemaInstaller` creates the table MySQL creates: the same statement without
  the two column-level clauses (the table-level foreign keys of the other tables are kept).
"""

import re
from typing import Any

from relstorage.adapters.mysql import MySQLAdapter  # type: ignore[import-untyped]
from relstorage.adapters.mysql.schema import (  # type: ignore[import-untyped]
    MySQLSchemaInstaller,
    MySQLVersionDetector,
)

# MariaDB gained @@transaction_isolation (MySQL 5.7.20's name for @@tx_isolation) in 11.1.1.
MARIADB_TRANSACTION_ISOLATION = (11, 1, 1)
COLUMN_REFERENCES = re.compile(r'\s+REFERENCES\s+"transaction"(?=\s*,)')


class MariadbVersionDetector(MySQLVersionDetector):  # type: ignore[misc]
    def is_mariadb(self, cursor: Any) -> bool:
        return "mariadb" in str(self.get_version(cursor)).lower()

    def requires_values_upsert_alias(self, cursor: Any) -> bool:
        if self.is_mariadb(cursor):
            return False
        return bool(super().requires_values_upsert_alias(cursor))

    def supports_nowait(self, cursor: Any) -> bool:
        if self.is_mariadb(cursor):
            return False
        return bool(super().supports_nowait(cursor))

    def supports_transaction_isolation(self, cursor: Any) -> bool:
        if self.is_mariadb(cursor):
            return bool(self.get_version_info(cursor) >= MARIADB_TRANSACTION_ISOLATION)
        return bool(super().supports_transaction_isolation(cursor))


class MariadbSchemaInstaller(MySQLSchemaInstaller):  # type: ignore[misc]
    CREATE_OBJECT_STATE_TMPLS = tuple(
        COLUMN_REFERENCES.sub("", template)
        for template in MySQLSchemaInstaller.CREATE_OBJECT_STATE_TMPLS
    )


class MariadbAdapter(MySQLAdapter):  # type: ignore[misc]
    """RelStorage's MySQL adapter with MariaDB's version detector and schema installer."""

    def __init__(self, **params: Any) -> None:
        # new_instance() (an adapter per storage instance) passes the detector it has.
        params.setdefault("version_detector", MariadbVersionDetector())
        super().__init__(**params)

    def _create(self) -> None:
        super()._create()
        # The installer is made inside _create; ours differs only in object_state's statement.
        self.schema.__class__ = MariadbSchemaInstaller
