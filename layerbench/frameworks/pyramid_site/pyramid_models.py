"""SQLAlchemy 2 models of the site's videos and comments, mapped onto the data layer's tables
(:mod:`layerbench.datalayer.entities`; its migrations create them, never these models). Numids
are as the database stores them (:mod:`layerbench.datalayer.numids`)."""

from sqlalchemy import BigInteger, ForeignKey, Text
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship


class SiteBase(DeclarativeBase):
    pass


class Video(SiteBase):
    __tablename__ = "videos"

    numid: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    id: Mapped[str] = mapped_column(Text)
    prettyid: Mapped[str | None] = mapped_column(Text)
    title: Mapped[str] = mapped_column(Text)
    url: Mapped[str | None] = mapped_column(Text)
    description: Mapped[str | None] = mapped_column(Text)


class Comment(SiteBase):
    __tablename__ = "comments"

    numid: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    id: Mapped[str] = mapped_column(Text)
    prettyid: Mapped[str | None] = mapped_column(Text)
    video_numid: Mapped[int] = mapped_column(BigInteger, ForeignKey("videos.numid"))
    author: Mapped[str] = mapped_column(Text)
    body: Mapped[str] = mapped_column(Text)
    author_url: Mapped[str | None] = mapped_column(Text)
    author_email: Mapped[str | None] = mapped_column(Text)
    video: Mapped[Video] = relationship()
