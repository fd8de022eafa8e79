"""The SQLAlchemy 2 models of the project's tables that the Flask, Pyramid and Starlette sites
read and write (:mod:`layerbench_sites.datalayer.entities`; the data layer's migrations create them,
never these models): the rung data's ``hello`` row, the site's videos and comments, and the
audit history. A numid is mapped as it is stored (signed on SQLite and PostgreSQL, unsigned on
MariaDB: :mod:`layerbench_sites.datalayer.numids`)."""

from sqlalchemy import BigInteger, Column, ForeignKey, Integer, MetaData, Table, Text
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship


class SiteBase(DeclarativeBase):
    pass


class Hello(SiteBase):
    __tablename__ = "hello"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    value: Mapped[str] = mapped_column(Text)


class Video(SiteBase):
    __tablename__ = "videos"

    numid: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    id: Mapped[str] = mapped_column(Text, unique=True)
    prettyid: Mapped[str | None] = mapped_column(Text)
    title: Mapped[str] = mapped_column(Text)
    url: Mapped[str | None] = mapped_column(Text)
    description: Mapped[str | None] = mapped_column(Text)


class Comment(SiteBase):
    __tablename__ = "comments"

    numid: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    id: Mapped[str] = mapped_column(Text, unique=True)
    prettyid: Mapped[str | None] = mapped_column(Text)
    video_numid: Mapped[int] = mapped_column(BigInteger, ForeignKey("videos.numid"))
    author: Mapped[str] = mapped_column(Text)
    body: Mapped[str] = mapped_column(Text)
    author_url: Mapped[str | None] = mapped_column(Text)
    author_email: Mapped[str | None] = mapped_column(Text)
    video: Mapped[Video] = relationship()


# The audit history (its triggers write it): read only for the order comments were written in.
HISTORY = Table(
    "history",
    MetaData(),
    Column("seq", BigInteger, primary_key=True),
    Column("table_name", Text),
    Column("row_key", Text),
)
