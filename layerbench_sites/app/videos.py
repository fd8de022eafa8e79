"""The demo site's domain on the data layer: videos with their tags, comments on a video, and
tags with their videos. Every write is one transaction named after its actor, made of the
repository's primitives (so that its observers learn what it changed); the ids, the registry
and the history are the data layer's (its triggers).

Resources are found by their short id or, failing that, their pretty id (a tag's pretty id is
its name). Representations are plain dicts in the API's field names.
"""

import re
from dataclasses import dataclass
from typing import Any

from layerbench_sites.datalayer.changes import Change
from layerbench_sites.datalayer.entities import COMMENTS_V2, TAGS, VIDEO_TAGS, VIDEOS_V3
from layerbench_sites.datalayer.repository import NotFoundError, Repository
from layerbench_sites.ids.codec import V0_LENGTH, InvalidIdError, decode, encode

Row = dict[str, Any]

# What a pretty id can be (anything else names nothing, and is not sent to the database).
REF_PATTERN = re.compile(r"[0-9a-z][0-9a-z-]{0,63}")

# API field → column, for the fields stored as they are.
VIDEO_COLUMNS = {"title": "title", "url": "url", "description": "description"}
COMMENT_COLUMNS = {"name": "author", "url": "author_url", "email": "author_email", "body": "body"}


class ConflictError(Exception):
    """The write contradicts what is stored: a pretty id taken or already set."""


@dataclass(frozen=True)
class Page:
    items: list[Row]
    total: int


def short_id_number(ref: str) -> int | None:
    """The number of a well-formed short id, or None for anything else (a pretty id)."""
    if len(ref) != V0_LENGTH:  # a pretty id, mostly: told without an exception built
        return None
    try:
        return decode(ref)
    except InvalidIdError:
        return None


class Catalog:
    def __init__(self, repository: Repository) -> None:
        self.repository = repository
        self.p = repository.dialect.placeholder

    # -- reading ---------------------------------------------------------------------------

    def _query(self, sql: str, parameters: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        cursor = self.repository.connection.cursor()
        try:
            cursor.execute(sql, parameters)
            return list(cursor.fetchall())
        finally:
            cursor.close()

    def _find(self, table: str, ref: str, extra: str = "", args: tuple[Any, ...] = ()) -> int:
        """The numid of the entity ``ref`` names, by short id, else pretty id."""
        number = short_id_number(ref)
        if number is None and not REF_PATTERN.fullmatch(ref):
            raise NotFoundError(f"no {table[:-1]} {ref!r}")
        column, value = ("id", ref) if number is not None else ("prettyid", ref)
        rows = self._query(
            f"SELECT numid FROM {table} WHERE {column} = {self.p}{extra}", (value, *args)
        )
        if not rows:
            raise NotFoundError(f"no {table[:-1]} {ref}")
        return self.repository.dialect.from_stored(rows[0][0])

    def video(self, ref: str) -> Row:
        return self._video_by_numid(self._find("videos", ref))

    def _video_by_numid(self, numid: int) -> Row:
        cursor = self.repository.connection.cursor()
        try:
            row = self.repository.get_row(cursor, VIDEOS_V3, numid)
        finally:
            cursor.close()
        if row is None:
            raise NotFoundError(f"no video {encode(numid)}")
        return self._video_json(row, self._tags_of(numid))

    def _tags_of(self, numid: int) -> list[str]:
        cursor = self.repository.connection.cursor()
        try:
            return self._tags_of_in(cursor, numid)
        finally:
            cursor.close()

    @staticmethod
    def _video_json(row: Row, tags: list[str]) -> Row:
        return {
            "id": row["id"],
            "prettyid": row["prettyid"],
            **{field: row[column] for field, column in VIDEO_COLUMNS.items()},
            "tags": tags,
        }

    def videos(self, offset: int, limit: int, tag: str | None = None) -> Page:
        columns = ", ".join(f"v.{c}" for c in ("numid", "id", "prettyid", *VIDEO_COLUMNS.values()))
        where = ""
        args: tuple[Any, ...] = ()
        if tag is not None:
            tag_numid = self._find("tags", tag)
            where = (
                f" WHERE v.numid IN (SELECT video_numid FROM video_tags WHERE tag_numid = {self.p})"
            )
            args = (self.repository.dialect.to_stored(tag_numid),)
        total = self._query(f"SELECT count(*) FROM videos v{where}", args)[0][0]
        rows = self._query(
            f"SELECT {columns} FROM videos v{where} ORDER BY v.title, v.id"
            f" LIMIT {int(limit)} OFFSET {int(offset)}",
            args,
        )
        names = ("numid", "id", "prettyid", *VIDEO_COLUMNS.values())
        items = []
        for values in rows:
            row = dict(zip(names, values, strict=True))
            numid = self.repository.dialect.from_stored(row["numid"])
            items.append(self._video_json(row, self._tags_of(numid)))
        return Page(items, int(total))

    def comments(self, video_ref: str, offset: int, limit: int) -> Page:
        video_numid = self._find("videos", video_ref)
        stored = self.repository.dialect.to_stored(video_numid)
        columns = ", ".join(f"c.{c}" for c in ("id", "prettyid", *COMMENT_COLUMNS.values()))
        total = self._query(
            f"SELECT count(*) FROM comments c WHERE c.video_numid = {self.p}", (stored,)
        )[0][0]
        # In the order they were written: the audit history has it.
        rows = self._query(
            f"SELECT {columns} FROM comments c WHERE c.video_numid = {self.p} ORDER BY"
            " (SELECT min(h.seq) FROM history h WHERE h.table_name = 'comments'"
            " AND h.row_key = c.id), c.id"
            f" LIMIT {int(limit)} OFFSET {int(offset)}",
            (stored,),
        )
        video_id = encode(video_numid)
        items = [
            self._comment_json(
                dict(zip(("id", "prettyid", *COMMENT_COLUMNS.values()), r, strict=True)),
                video_id,
            )
            for r in rows
        ]
        return Page(items, int(total))

    def comment(self, video_ref: str, comment_ref: str) -> Row:
        video_numid = self._find("videos", video_ref)
        numid = self._find(
            "comments",
            comment_ref,
            f" AND video_numid = {self.p}",
            (self.repository.dialect.to_stored(video_numid),),
        )
        cursor = self.repository.connection.cursor()
        try:
            row = self.repository.get_row(cursor, COMMENTS_V2, numid)
        finally:
            cursor.close()
        if row is None:
            raise NotFoundError(f"no comment {comment_ref}")
        return self._comment_json(row, encode(video_numid))

    @staticmethod
    def _comment_json(row: Row, video_id: str) -> Row:
        return {
            "id": row["id"],
            "video_id": video_id,
            **{field: row[column] for field, column in COMMENT_COLUMNS.items()},
        }

    def tags(self) -> list[Row]:
        rows = self._query(
            "SELECT t.name, (SELECT count(*) FROM video_tags vt WHERE vt.tag_numid = t.numid)"
            " FROM tags t ORDER BY t.name"
        )
        return [{"name": name, "videos": int(count)} for name, count in rows]

    def history(self, ref: str) -> list[Change]:
        numid = self._find("videos", ref)
        return self.repository.history("videos", encode(numid))

    # -- writing ---------------------------------------------------------------------------

    def create_video(self, fields: Row, actor: str) -> str:
        def work(cursor: Any) -> str:
            numid = self.repository.new_numid()
            values = {VIDEO_COLUMNS[k]: fields.get(k) for k in VIDEO_COLUMNS}
            self.repository.insert_row(cursor, VIDEOS_V3, numid, fields.get("prettyid"), values)
            self._set_tags(cursor, numid, fields.get("tags", []))
            return encode(numid)

        return self.repository.write(actor, work)

    def put_video(self, identifier: str, fields: Row, actor: str) -> bool:
        """Creates the video under the client's id, or makes it ``fields``; returns whether
        it was created. Doing it twice is doing it once: an unchanged video is not written."""
        numid = decode(identifier)

        def work(cursor: Any) -> bool:
            values = {VIDEO_COLUMNS[k]: fields.get(k) for k in VIDEO_COLUMNS}
            current = self.repository.get_row(cursor, VIDEOS_V3, numid)
            if current is None:
                self._refuse_if_registered(cursor, numid)
                self.repository.insert_row(cursor, VIDEOS_V3, numid, fields.get("prettyid"), values)
                self._set_tags(cursor, numid, fields.get("tags", []))
                return True
            changed = {k: v for k, v in values.items() if current[k] != v}
            if "prettyid" in fields and fields["prettyid"] != current["prettyid"]:
                changed["prettyid"] = fields["prettyid"]
            if changed:
                self.repository.update_row(cursor, VIDEOS_V3, numid, changed)
            self._set_tags(cursor, numid, fields.get("tags", []))
            return False

        return self.repository.write(actor, work)

    def update_video(self, ref: str, fields: Row, actor: str) -> str:
        numid = self._find("videos", ref)

        def work(cursor: Any) -> None:
            values = {VIDEO_COLUMNS[k]: v for k, v in fields.items() if k in VIDEO_COLUMNS}
            if "prettyid" in fields:
                values["prettyid"] = fields["prettyid"]
            if values:
                self.repository.update_row(cursor, VIDEOS_V3, numid, values)
            if "tags" in fields:
                self._set_tags(cursor, numid, fields["tags"])

        self.repository.write(actor, work)
        return encode(numid)

    def delete_video(self, ref: str, actor: str) -> None:
        self.repository.delete("videos", encode(self._find("videos", ref)), actor=actor)

    def _refuse_if_registered(self, cursor: Any, numid: int) -> None:
        """A client's id for a new entity that the registry has for another: a conflict. (The
        insert would meet it as a fresh id's collision, which the repository cures by drawing
        again: the client's id cannot be drawn again.)"""
        cursor.execute(
            f"SELECT kind FROM ids WHERE numid = {self.p}",
            (self.repository.dialect.to_stored(numid),),
        )
        row = cursor.fetchone()
        if row is not None:
            raise ConflictError(f"{encode(numid)} is the id of one of the {row[0]}")

    def _set_tags(self, cursor: Any, video_numid: int, names: list[str]) -> None:
        """The video's tags become ``names``; unknown tags are created (their pretty id is
        their name)."""
        wanted = sorted(set(names))
        if wanted == self._tags_of_in(cursor, video_numid):
            return
        self.repository.delete_links(cursor, VIDEO_TAGS, "video_numid", video_numid)
        for name in wanted:
            link = {"video_numid": video_numid, "tag_numid": self._tag_numid(cursor, name)}
            self.repository.insert_link(cursor, VIDEO_TAGS, link)

    def _tag_numid(self, cursor: Any, name: str) -> int:
        """The tag named ``name``, created if there is none. Writers creating the same new tag
        at once create it once: a second insert meets the first one's unique name (the
        database makes it wait until the first commits), is undone to a savepoint, and the
        tag is read as the first committed it. A name that is another entity's pretty id is
        still a conflict."""
        found = self._tag_by_name(cursor, name)
        if found is not None:
            return found
        numid = self.repository.new_numid()
        cursor.execute("SAVEPOINT new_tag")
        try:
            self.repository.insert_row(cursor, TAGS, numid, name, {"name": name})
        except Exception as error:
            if not self.repository.dialect.is_unique_violation(error):
                raise
            cursor.execute("ROLLBACK TO SAVEPOINT new_tag")
            found = self._tag_by_name(cursor, name, self.repository.dialect.locking_read)
            if found is None:
                raise
            return found
        cursor.execute("RELEASE SAVEPOINT new_tag")
        return numid

    def _tag_by_name(self, cursor: Any, name: str, locking: str = "") -> int | None:
        cursor.execute(f"SELECT numid FROM tags WHERE name = {self.p}{locking}", (name,))
        row = cursor.fetchone()
        return None if row is None else self.repository.dialect.from_stored(row[0])

    def _tags_of_in(self, cursor: Any, video_numid: int) -> list[str]:
        cursor.execute(
            "SELECT t.name FROM video_tags vt JOIN tags t ON t.numid = vt.tag_numid"
            f" WHERE vt.video_numid = {self.p} ORDER BY t.name",
            (self.repository.dialect.to_stored(video_numid),),
        )
        return [name for (name,) in cursor.fetchall()]

    def create_comment(self, video_ref: str, fields: Row, actor: str) -> Row:
        video_numid = self._find("videos", video_ref)

        def work(cursor: Any) -> str:
            numid = self.repository.new_numid()
            values: Row = {"video_numid": video_numid}
            values |= {COMMENT_COLUMNS[k]: fields.get(k) for k in COMMENT_COLUMNS}
            self.repository.insert_row(cursor, COMMENTS_V2, numid, None, values)
            return encode(numid)

        identifier = self.repository.write(actor, work)
        return self.comment(encode(video_numid), identifier)

    def put_comment(self, video_ref: str, identifier: str, fields: Row, actor: str) -> bool:
        """Creates the comment on the video under the client's id, or makes it ``fields``;
        returns whether it was created. Doing it twice is doing it once: an unchanged comment
        is not written. The id of a comment on another video is a conflict."""
        video_numid = self._find("videos", video_ref)
        numid = decode(identifier)

        def work(cursor: Any) -> bool:
            values = {COMMENT_COLUMNS[k]: fields.get(k) for k in COMMENT_COLUMNS}
            current = self.repository.get_row(cursor, COMMENTS_V2, numid)
            if current is None:
                self._refuse_if_registered(cursor, numid)
                values["video_numid"] = video_numid
                self.repository.insert_row(cursor, COMMENTS_V2, numid, None, values)
                return True
            if current["video_numid"] != video_numid:
                raise ConflictError(f"comment {identifier} is on another video")
            changed = {k: v for k, v in values.items() if current[k] != v}
            if changed:
                self.repository.update_row(cursor, COMMENTS_V2, numid, changed)
            return False

        return self.repository.write(actor, work)

    def update_comment(self, video_ref: str, comment_ref: str, fields: Row, actor: str) -> Row:
        current = self.comment(video_ref, comment_ref)
        values = {COMMENT_COLUMNS[k]: v for k, v in fields.items() if k in COMMENT_COLUMNS}
        if values:
            self.repository.update("comments", current["id"], values, actor=actor)
        return self.comment(current["video_id"], current["id"])

    def delete_comment(self, video_ref: str, comment_ref: str, actor: str) -> Row:
        current = self.comment(video_ref, comment_ref)
        self.repository.delete("comments", current["id"], actor=actor)
        return current
