"""What differs between the databases for the repository: placeholders, how a write transaction
begins and names its actor, how numids are stored, what an id collision looks like, and which
failures are the database giving a transaction up so that another may go on (worth running it
again)."""

from typing import Any, Protocol

from layerbench_sites.datalayer.numids import from_signed, to_signed


class Dialect(Protocol):
    name: str
    placeholder: str
    # What makes a SELECT a locking read of the newest committed rows (not a snapshot's).
    locking_read: str

    def begin(self, cursor: Any) -> None: ...

    def set_actor(self, cursor: Any, actor: str) -> None: ...

    def clear_actor(self, cursor: Any) -> None: ...

    def forget_actor(self, cursor: Any) -> None:
        """After a rollback: make sure the actor does not outlive its transaction."""
        ...

    def to_stored(self, numid: int) -> int: ...

    def from_stored(self, stored: int) -> int: ...

    def is_id_collision(self, error: Exception) -> bool: ...

    def is_unique_violation(self, error: Exception) -> bool:
        """Any unique key met (an id collision among them)."""
        ...

    def is_transient(self, error: Exception) -> bool:
        """A deadlock or serialization failure: the transaction was given up (rolled back)
        for another to go on, and may succeed if run again."""
        ...

    def history_time(self, value: Any) -> str: ...


class SignedNumids:
    """SQLite and PostgreSQL: numids as the signed 64-bit number with the same bits; the
    actor is transactional there, so a rollback takes it away."""

    def forget_actor(self, cursor: Any) -> None:
        return

    def to_stored(self, numid: int) -> int:
        return to_signed(numid)

    def from_stored(self, stored: int) -> int:
        return from_signed(stored)
