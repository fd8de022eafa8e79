"""A comment written through the Django ORM as the project's repository writes one: a fresh
64-bit numid and its short id in one transaction that names its actor, so that the database's
triggers register the id and record the history; run again with another id when the fresh one
collided, or when the database gave the transaction up for another."""

import time
from typing import Any

from django.db import DatabaseError, connections, transaction

from layerbench.datalayer.dialect import Dialect
from layerbench.datalayer.mariadb_dialect import MariadbDialect
from layerbench.datalayer.postgres_dialect import PostgresDialect
from layerbench.datalayer.repository import (
    MAX_ID_ATTEMPTS,
    MAX_TRANSIENT_ATTEMPTS,
    IdCollisionError,
    retry_pause_s,
)
from layerbench.datalayer.sqlite_dialect import SqliteDialect
from layerbench.frameworks.django_site.django_models import Comment, Video
from layerbench.ids.codec import encode
from layerbench.ids.generate import new_number

DIALECTS: dict[str, type[Dialect]] = {
    "sqlite": SqliteDialect,
    "postgresql": PostgresDialect,
    "mysql": MariadbDialect,
}


def dialect_of(alias: str) -> Dialect:
    return DIALECTS[connections[alias].vendor]()


def write_comment(video: Video, values: dict[str, Any], actor: str) -> Comment:
    alias = video._state.db or "default"
    dialect = dialect_of(alias)
    collisions = transient = 0
    while True:
        try:
            return _insert(alias, dialect, video, values, actor)
        except DatabaseError as error:
            cause = error.__cause__ if isinstance(error.__cause__, Exception) else error
            if dialect.is_id_collision(cause):
                collisions += 1
                if collisions >= MAX_ID_ATTEMPTS:
                    raise IdCollisionError(f"{MAX_ID_ATTEMPTS} fresh ids all collided") from error
            elif dialect.is_transient(cause):
                transient += 1
                if transient >= MAX_TRANSIENT_ATTEMPTS:
                    raise
                time.sleep(retry_pause_s(transient))
            else:
                raise


def _insert(
    alias: str, dialect: Dialect, video: Video, values: dict[str, Any], actor: str
) -> Comment:
    numid = new_number()
    try:
        with transaction.atomic(using=alias), connections[alias].cursor() as cursor:
            dialect.set_actor(cursor, actor)
            comment = Comment(
                numid=dialect.to_stored(numid), short_id=encode(numid), video=video, **values
            )
            # An insert, never an update of a row that has the same key.
            comment.save(using=alias, force_insert=True)
            dialect.clear_actor(cursor)
    except BaseException:
        with connections[alias].cursor() as cursor:
            dialect.forget_actor(cursor)
        raise
    return comment
