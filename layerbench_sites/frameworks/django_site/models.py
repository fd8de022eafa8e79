"""The project's tables as Django models (``managed = False``: the project's migrations made
them, with the ids registry and the audit triggers). Every entity's key is ``numid`` as the
database stores it (signed on SQLite and PostgreSQL, see ``datalayer.numids``); its short id is
the ``id`` column, here ``short_id`` (Django keeps the name ``id`` for a primary key)."""

from __future__ import annotations

from django.db import models

from layerbench_sites.frameworks.django_site.settings import APP_LABEL


class Hello(models.Model):
    """The rung data's row (in the ``rungs`` database)."""

    id: models.IntegerField[int, int] = models.IntegerField(primary_key=True)
    value: models.TextField[str, str] = models.TextField()

    class Meta:
        app_label = APP_LABEL
        db_table = "hello"
        managed = False


class Video(models.Model):
    numid: models.BigIntegerField[int, int] = models.BigIntegerField(primary_key=True)
    short_id: models.CharField[str, str] = models.CharField(
        db_column="id", max_length=13, unique=True
    )
    prettyid: models.CharField[str | None, str | None] = models.CharField(
        max_length=64, null=True, unique=True
    )
    title: models.TextField[str, str] = models.TextField()
    url: models.TextField[str | None, str | None] = models.TextField(null=True)
    description: models.TextField[str | None, str | None] = models.TextField(null=True)

    class Meta:
        app_label = APP_LABEL
        db_table = "videos"
        managed = False


class Comment(models.Model):
    numid: models.BigIntegerField[int, int] = models.BigIntegerField(primary_key=True)
    short_id: models.CharField[str, str] = models.CharField(
        db_column="id", max_length=13, unique=True
    )
    prettyid: models.CharField[str | None, str | None] = models.CharField(
        max_length=64, null=True, unique=True
    )
    video: models.ForeignKey[Video, Video] = models.ForeignKey(
        Video, on_delete=models.DO_NOTHING, db_column="video_numid", related_name="comments"
    )
    author: models.TextField[str, str] = models.TextField()
    body: models.TextField[str, str] = models.TextField()
    author_url: models.TextField[str | None, str | None] = models.TextField(null=True)
    author_email: models.TextField[str | None, str | None] = models.TextField(null=True)

    class Meta:
        app_label = APP_LABEL
        db_table = "comments"
        managed = False


class History(models.Model):
    """The audit trigger's record of every change (read here only for the comments' order)."""

    seq: models.BigIntegerField[int, int] = models.BigIntegerField(primary_key=True)
    table_name: models.TextField[str, str] = models.TextField()
    row_key: models.TextField[str, str] = models.TextField()

    class Meta:
        app_label = APP_LABEL
        db_table = "history"
        managed = False
