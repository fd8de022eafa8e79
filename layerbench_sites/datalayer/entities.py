"""The application's tables, described once; each dialect's DDL is generated from this.

Every entity table has ``numid`` (the 64-bit number, primary key), ``id`` (its 13-character
short id, unique) and ``prettyid`` (optional, unique, settable once), registered in ``ids``
across all entity types. Link tables have no ids of their own. All of them are audited.
"""

from dataclasses import dataclass, replace
from enum import Enum


class ColumnType(Enum):
    TEXT = "text"
    NUMID = "numid"  # a reference to an entity's numid


@dataclass(frozen=True)
class Column:
    name: str
    type: ColumnType
    nullable: bool = False
    references: str | None = None  # the entity table whose numid this is


def added_columns(before: "Table", after: "Table") -> tuple[Column, ...]:
    """The columns ``after`` has that ``before`` has not (a revision adds only nullable ones)."""
    names = {column.name for column in before.columns}
    return tuple(column for column in after.columns if column.name not in names)


def nullability_changed(before: "Table", after: "Table") -> tuple[Column, ...]:
    """The columns of ``after`` that are nullable where ``before``'s were not, or the other way
    round (as ``after`` has them)."""
    nullable = {column.name: column.nullable for column in before.columns}
    return tuple(
        column
        for column in after.columns
        if column.name in nullable and nullable[column.name] != column.nullable
    )


@dataclass(frozen=True)
class Table:
    name: str
    columns: tuple[Column, ...]
    # The columns that identify a row: ("numid",) for entities, the pair for link tables.
    key: tuple[str, ...] = ("numid",)
    unique: tuple[str, ...] = ()

    @property
    def is_entity(self) -> bool:
        return self.key == ("numid",)

    @property
    def all_columns(self) -> tuple[str, ...]:
        own = tuple(column.name for column in self.columns)
        return ("numid", "id", "prettyid", *own) if self.is_entity else own


VIDEOS = Table(
    "videos",
    (Column("title", ColumnType.TEXT), Column("url", ColumnType.TEXT)),
)
COMMENTS = Table(
    "comments",
    (
        Column("video_numid", ColumnType.NUMID, references="videos"),
        Column("author", ColumnType.TEXT),
        Column("body", ColumnType.TEXT),
    ),
)
TAGS = Table("tags", (Column("name", ColumnType.TEXT),), unique=("name",))
VIDEO_TAGS = Table(
    "video_tags",
    (
        Column("video_numid", ColumnType.NUMID, references="videos"),
        Column("tag_numid", ColumnType.NUMID, references="tags"),
    ),
    key=("video_numid", "tag_numid"),
)

# The tables as each schema revision made them: a migration creates the set of its revision
# (frozen), so that a later revision can change the tables without rewriting history.
SCHEMA_V1 = (VIDEOS, COMMENTS, TAGS, VIDEO_TAGS)

# Revision 0002: the seed's demo site's fields: a video's description, a commenter's url and
# email (all optional).
VIDEOS_V2 = Table("videos", (*VIDEOS.columns, Column("description", ColumnType.TEXT, True)))
COMMENTS_V2 = Table(
    "comments",
    (
        *COMMENTS.columns,
        Column("author_url", ColumnType.TEXT, nullable=True),
        Column("author_email", ColumnType.TEXT, nullable=True),
    ),
)
SCHEMA_V2 = (VIDEOS_V2, COMMENTS_V2, TAGS, VIDEO_TAGS)

# Revision 0004: a video's url is optional (a video may be only a title).
VIDEOS_V3 = Table(
    "videos",
    tuple(
        replace(column, nullable=True) if column.name == "url" else column
        for column in VIDEOS_V2.columns
    ),
)
SCHEMA_V3 = (VIDEOS_V3, COMMENTS_V2, TAGS, VIDEO_TAGS)

TABLES = SCHEMA_V3
ENTITIES = tuple(table for table in TABLES if table.is_entity)
TABLES_BY_NAME = {table.name: table for table in TABLES}

# Revision 0005: one row, the database's identity (a random id drawn when its schema was made).
# Not an entity, not audited: it is written once, by the migration.
IDENTITY_TABLE = "site_identity"
