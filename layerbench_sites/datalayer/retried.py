"""A write transaction run again, whole, when another attempt can cure what stopped it: a fresh
id that met an existing one, or a transaction the database gave up for another (a deadlock, a
serialization failure). One rule, bounded, for the repository and for every framework's own
write path (layerbench_sites.frameworks)."""

import asyncio
import random
import time
from collections.abc import Awaitable, Callable
from typing import TypeVar

from layerbench.errors import LayerbenchError
from layerbench_sites.datalayer.dialect import Dialect

# A fresh id colliding again has a chance of about rows / 2**64 each time.
MAX_ID_ATTEMPTS = 5
# A transaction given up for another (deadlock, serialization failure) is run again up to this
# many times in all, after a random pause of up to RETRY_PAUSE_S doubled at each attempt.
MAX_TRANSIENT_ATTEMPTS = 10
RETRY_PAUSE_S = 0.005
MAX_RETRY_PAUSE_S = 0.25

T = TypeVar("T")


class IdCollisionError(LayerbenchError):
    """Every attempt to insert with a fresh id met an existing one."""


def as_raised(error: Exception) -> Exception:
    """The driver's error as the driver raised it (the repository uses the driver directly)."""
    return error


def wrapped_driver_error(error: Exception) -> Exception:
    """The driver's error inside a framework's: SQLAlchemy's ``orig``, Django's ``__cause__``."""
    inner = getattr(error, "orig", None)
    if not isinstance(inner, Exception):
        inner = error.__cause__
    return inner if isinstance(inner, Exception) else error


class RetryRule:
    """What an attempt's error calls for: another attempt after a pause (an id collision, up to
    MAX_ID_ATTEMPTS in all; a transaction given up for another, up to MAX_TRANSIENT_ATTEMPTS,
    after a short random pause), or the error raised (past those bounds, or any other)."""

    def __init__(self, dialect: Dialect, driver_error: Callable[[Exception], Exception]) -> None:
        self.dialect = dialect
        self.driver_error = driver_error
        self.collisions = 0
        self.transient = 0

    def pause_after(self, error: Exception) -> float:
        """Seconds to wait before the next attempt; raises when there is none."""
        cause = self.driver_error(error)
        if self.dialect.is_id_collision(cause):
            self.collisions += 1
            if self.collisions >= MAX_ID_ATTEMPTS:
                raise IdCollisionError(f"{MAX_ID_ATTEMPTS} fresh ids all collided") from error
            return 0.0
        if self.dialect.is_transient(cause):
            self.transient += 1
            if self.transient < MAX_TRANSIENT_ATTEMPTS:
                return retry_pause_s(self.transient)
        raise error


def run_retried(
    dialect: Dialect,
    attempt: Callable[[], T],
    driver_error: Callable[[Exception], Exception] = as_raised,
) -> T:
    """``attempt()``'s result, running it again from its start on an id collision (up to
    MAX_ID_ATTEMPTS in all) or a transaction given up for another (up to
    MAX_TRANSIENT_ATTEMPTS, after a short random pause); past those bounds, or on any other
    error, the error is raised. ``attempt`` is one whole transaction: it commits, or it raises
    having rolled back. ``driver_error`` finds the driver's own error in what ``attempt``
    raises (``wrapped_driver_error`` where a framework wraps it)."""
    rule = RetryRule(dialect, driver_error)
    while True:
        try:
            return attempt()
        except Exception as error:
            pause_s = rule.pause_after(error)
        if pause_s:
            time.sleep(pause_s)


async def run_retried_async(
    dialect: Dialect,
    attempt: Callable[[], Awaitable[T]],
    driver_error: Callable[[Exception], Exception] = as_raised,
) -> T:
    """``run_retried`` for an async transaction (the ASGI sites'): the same rule and bounds,
    its pause awaited rather than slept."""
    rule = RetryRule(dialect, driver_error)
    while True:
        try:
            return await attempt()
        except Exception as error:
            pause_s = rule.pause_after(error)
        if pause_s:
            await asyncio.sleep(pause_s)


def retry_pause_s(attempt: int) -> float:
    """How long to wait before running a transaction again after its ``attempt``-th failure:
    random (so that the transactions that collided do not meet again), longer each time."""
    return random.uniform(0, min(MAX_RETRY_PAUSE_S, RETRY_PAUSE_S * 2**attempt))
