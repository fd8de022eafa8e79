"""A comment written through the Django ORM as the project's repository writes one: a fresh
64-bit numid and its short id in one transaction that names its actor, so that the database's
triggers register the id and record the history; run again with another id when the fresh one
collided, or when the database gave the transaction up for another."""

from typing import Any

from django.db import connections, transaction

from layerbench_sites.datalayer.dialect import Dialect
from layerbench_sites.datalayer.retried import run_retried, wrapped_driver_error
from layerbench_sites.frameworks.django_site.models import Comment, Video
from layerbench_sites.frameworks.site_dialect import dialect_named
from layerbench_sites.ids.codec import encode
from layerbench_sites.ids.generate import new_number


def dialect_of(alias: str) -> Dialect:
    return dialect_named(connections[alias].vendor)


def write_comment(video: Video, values: dict[str, Any], actor: str) -> Comment:
    alias = video._state.db or "default"
    dialect = dialect_of(alias)
    return run_retried(
        dialect,
        lambda: _insert(alias, dialect, video, values, actor),
        driver_error=wrapped_driver_error,
    )


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
