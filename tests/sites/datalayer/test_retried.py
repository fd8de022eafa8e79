"""One retry rule for every write path: the repository's and each framework's own. A framework
wraps the driver's error (SQLAlchemy in ``orig``, Django as the ``__cause__``); the rule judges
the driver's, so a collision raised through a framework is run again like the repository's."""

import sqlite3

import pytest
from django.db import IntegrityError as DjangoIntegrityError
from sqlalchemy.exc import IntegrityError as SqlalchemyIntegrityError

from layerbench_sites.datalayer.retried import (
    MAX_ID_ATTEMPTS,
    IdCollisionError,
    run_retried,
    wrapped_driver_error,
)
from layerbench_sites.datalayer.sqlite_dialect import COLLISION_MESSAGES, SqliteDialect

COLLISION = sqlite3.IntegrityError(next(iter(COLLISION_MESSAGES)))


def django_wrapped(error: Exception) -> Exception:
    try:
        raise DjangoIntegrityError(str(error)) from error
    except DjangoIntegrityError as wrapped:
        return wrapped


WRAPPED = {
    "sqlalchemy": SqlalchemyIntegrityError("INSERT …", {}, COLLISION),
    "django": django_wrapped(COLLISION),
}


@pytest.mark.parametrize("framework", sorted(WRAPPED))
def test_the_driver_error_is_found_inside_a_framework_error(framework: str) -> None:
    assert wrapped_driver_error(WRAPPED[framework]) is COLLISION


@pytest.mark.parametrize("framework", sorted(WRAPPED))
def test_a_collision_through_a_framework_is_run_again_then_bounded(framework: str) -> None:
    attempts: list[int] = []

    def collide_twice() -> str:
        attempts.append(1)
        if len(attempts) <= 2:
            raise WRAPPED[framework]
        return "written"

    result = run_retried(SqliteDialect(), collide_twice, driver_error=wrapped_driver_error)
    assert (result, len(attempts)) == ("written", 3)

    def always_collide() -> str:
        raise WRAPPED[framework]

    with pytest.raises(IdCollisionError, match="collided"):
        run_retried(SqliteDialect(), always_collide, driver_error=wrapped_driver_error)


def test_any_other_error_is_raised_at_once() -> None:
    attempts: list[int] = []

    def fail() -> None:
        attempts.append(1)
        raise sqlite3.OperationalError("no such table: comments")

    with pytest.raises(sqlite3.OperationalError):
        run_retried(SqliteDialect(), fail, driver_error=wrapped_driver_error)
    assert len(attempts) == 1
    assert MAX_ID_ATTEMPTS > 2
