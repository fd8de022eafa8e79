"""MariaDB for the repository (PyMySQL): numids as they are (BIGINT UNSIGNED), the actor as a
session variable set for one transaction and cleared when it ends."""

from datetime import UTC, datetime
from typing import Any

from layerbench_sites.datalayer.changes import history_timestamp

DUPLICATE_ENTRY = 1062  # ER_DUP_ENTRY
LOCK_DEADLOCK = 1213  # ER_LOCK_DEADLOCK: InnoDB rolled the transaction back
# The registry's unique keys: a fresh id that meets one of them is a collision.
COLLISION_KEYS = ("'PRIMARY'", "'id'", "'ids.PRIMARY'", "'ids.id'")


class MariadbDialect:
    name = "mariadb"
    placeholder = "%s"
    locking_read = " LOCK IN SHARE MODE"

    def begin(self, cursor: Any) -> None:
        cursor.execute("START TRANSACTION")

    def set_actor(self, cursor: Any, actor: str) -> None:
        cursor.execute("SET @layerbench_actor = %s", (actor,))

    def clear_actor(self, cursor: Any) -> None:
        cursor.execute("SET @layerbench_actor = NULL")

    def forget_actor(self, cursor: Any) -> None:
        """A session variable outlives a rollback: clear it after one too."""
        self.clear_actor(cursor)

    def to_stored(self, numid: int) -> int:
        return numid

    def from_stored(self, stored: int) -> int:
        return int(stored)

    def is_id_collision(self, error: Exception) -> bool:
        if not self.is_unique_violation(error):
            return False
        message = str(error.args[1])
        return any(message.endswith(f"for key {key}") for key in COLLISION_KEYS)

    def is_unique_violation(self, error: Exception) -> bool:
        return error_code(error) == DUPLICATE_ENTRY

    def is_transient(self, error: Exception) -> bool:
        return error_code(error) == LOCK_DEADLOCK

    def history_time(self, value: Any) -> str:
        if isinstance(value, datetime):
            return history_timestamp(value.replace(tzinfo=UTC))
        return str(value)


def error_code(error: Exception) -> int | None:
    """The server's error number of a PyMySQL error (its first argument)."""
    arguments: tuple[Any, ...] = tuple(getattr(error, "args", ()))
    return arguments[0] if len(arguments) >= 2 and isinstance(arguments[0], int) else None
