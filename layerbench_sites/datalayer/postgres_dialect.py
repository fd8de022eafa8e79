"""PostgreSQL for the repository (psycopg 3): the actor as a transaction-local setting."""

from datetime import datetime
from typing import Any

from layerbench_sites.datalayer.changes import history_timestamp
from layerbench_sites.datalayer.dialect import SignedNumids

# The registry's unique constraints: a fresh id that meets one of them is a collision.
COLLISION_CONSTRAINTS = ("ids_pkey", "ids_id_key")
UNIQUE_VIOLATION = "23505"
# serialization_failure, deadlock_detected
TRANSIENT_STATES = ("40001", "40P01")


class PostgresDialect(SignedNumids):
    name = "postgresql"
    placeholder = "%s"
    locking_read = " FOR SHARE"

    def begin(self, cursor: Any) -> None:
        cursor.execute("BEGIN")

    def set_actor(self, cursor: Any, actor: str) -> None:
        cursor.execute("SELECT set_config('layerbench.actor', %s, true)", (actor,))

    def clear_actor(self, cursor: Any) -> None:
        """Nothing to do: the setting ends with its transaction."""

    def is_id_collision(self, error: Exception) -> bool:
        diag = getattr(error, "diag", None)
        return (
            getattr(error, "sqlstate", None) == UNIQUE_VIOLATION
            and diag is not None
            and diag.constraint_name in COLLISION_CONSTRAINTS
        )

    def is_unique_violation(self, error: Exception) -> bool:
        return getattr(error, "sqlstate", None) == UNIQUE_VIOLATION

    def is_transient(self, error: Exception) -> bool:
        return getattr(error, "sqlstate", None) in TRANSIENT_STATES

    def history_time(self, value: Any) -> str:
        return history_timestamp(value) if isinstance(value, datetime) else str(value)
