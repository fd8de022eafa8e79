"""SQLite for the repository: one write transaction at a time (so none is ever given up for
another: a writer waits for the lock), the actor in ``audit_actor``."""

import sqlite3
from typing import Any

from layerbench_sites.datalayer.dialect import SignedNumids

COLLISION_MESSAGES = ("UNIQUE constraint failed: ids.numid", "UNIQUE constraint failed: ids.id")


class SqliteDialect(SignedNumids):
    name = "sqlite"
    placeholder = "?"
    locking_read = ""  # a write transaction holds the database's only write lock

    def begin(self, cursor: Any) -> None:
        # IMMEDIATE: take the write lock now, so a busy database waits here (busy timeout)
        # instead of failing at the first write.
        cursor.execute("BEGIN IMMEDIATE")

    def set_actor(self, cursor: Any, actor: str) -> None:
        cursor.execute("INSERT INTO audit_actor (slot, actor) VALUES (1, ?)", (actor,))

    def clear_actor(self, cursor: Any) -> None:
        cursor.execute("DELETE FROM audit_actor")

    def is_id_collision(self, error: Exception) -> bool:
        return isinstance(error, sqlite3.IntegrityError) and str(error) in COLLISION_MESSAGES

    def is_unique_violation(self, error: Exception) -> bool:
        return isinstance(error, sqlite3.IntegrityError) and str(error).startswith(
            "UNIQUE constraint failed"
        )

    def is_transient(self, error: Exception) -> bool:
        return False

    def history_time(self, value: Any) -> str:
        return str(value)
