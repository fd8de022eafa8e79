"""``POST /videos/{ref}/comments`` in the Pyramid site: a comment as JSON, checked against the
API's schema, written through the SQLAlchemy models as the project's repository writes a row
(a fresh 64-bit numid, its short id, no pretty id, the acting user named to the audit trigger)
and answered 201 with the comment as the API gives it. A fresh id that collides, or a
transaction the database gives up for another, is run again (the repository's bounds)."""

import json
from collections.abc import Callable
from typing import Any

from pyramid.response import Response  # type: ignore[import-untyped]
from sqlalchemy.orm import Session

from layerbench.services.urls import ServiceUrl
from layerbench.site_contract import MAX_BODY_BYTES
from layerbench_sites.app.api import schemas
from layerbench_sites.app.api.http import ACTOR_HEADER, ACTOR_PATTERN
from layerbench_sites.app.api.json_text import parse_json
from layerbench_sites.datalayer.dialect import Dialect
from layerbench_sites.datalayer.mariadb_dialect import MariadbDialect
from layerbench_sites.datalayer.open_repository import is_sqlite
from layerbench_sites.datalayer.postgres_dialect import PostgresDialect
from layerbench_sites.datalayer.retried import run_retried, wrapped_driver_error
from layerbench_sites.datalayer.sqlite_dialect import SqliteDialect
from layerbench_sites.frameworks.pyramid_site.lookup import find_video
from layerbench_sites.frameworks.site_models import Video
from layerbench_sites.frameworks.site_orm import comment_json, new_comment

JSON = "application/json"


def dialect_of(database_url: str) -> Dialect:
    if is_sqlite(database_url):
        return SqliteDialect()
    return (
        PostgresDialect() if ServiceUrl.parse(database_url).kind == "postgres" else MariadbDialect()
    )


def problem(status: int, title: str, errors: list[str]) -> Any:
    body = json.dumps({"title": title, "errors": errors}, separators=(",", ":")).encode()
    return Response(body=body, status=status, content_type=JSON)


class CommentWriter:
    def __init__(self, sessions: Callable[[], Session], dialect: Dialect) -> None:
        self.sessions = sessions
        self.dialect = dialect

    def __call__(self, request: Any) -> Any:
        fields = self._read(request)
        if not isinstance(fields, dict):
            return fields
        user = request.environ.get("REMOTE_USER") or request.headers.get(ACTOR_HEADER)
        if user is not None and not ACTOR_PATTERN.fullmatch(user):
            return problem(
                422, "invalid input", [f"{ACTOR_HEADER}: 1 to 64 of A-Z a-z 0-9 . _ @ + -"]
            )
        # Who writes, as the history records it (as the API names its actors).
        actor = f"{user or 'anonymous'}@{request.remote_addr or 'unknown'}"

        def attempt() -> Any:
            with self.sessions() as session:
                video = find_video(session, request.matchdict["ref"])
                if video is None:
                    return problem(404, "not found", [f"no video {request.matchdict['ref']}"])
                document = self._insert(session, video, fields, actor)
            location = f"/videos/{document['video_id']}/comments/{document['id']}"
            body = json.dumps(document, separators=(",", ":")).encode()
            return Response(body=body, status=201, content_type=JSON, location=location)

        return run_retried(self.dialect, attempt, driver_error=wrapped_driver_error)

    def _insert(
        self, session: Session, video: Video, fields: dict[str, Any], actor: str
    ) -> dict[str, Any]:
        """One transaction: the actor named, the row inserted (the triggers register its id
        and record it), committed (the sweeper expires the video's pages); the comment as the
        API gives it."""
        cursor = session.connection().connection.cursor()
        try:
            self.dialect.set_actor(cursor, actor)
            comment = new_comment(self.dialect, video, fields)
            session.add(comment)
            session.flush()
            document = comment_json(comment, video)
            self.dialect.clear_actor(cursor)
        except BaseException:
            self.dialect.forget_actor(cursor)
            session.rollback()
            raise
        finally:
            cursor.close()
        session.commit()
        return document

    @staticmethod
    def _read(request: Any) -> dict[str, Any] | Any:
        """The comment's fields, or the problem answered instead."""
        if request.content_type != JSON:
            return problem(415, "not JSON", [f"the body must be {JSON}"])
        if (request.content_length or 0) > MAX_BODY_BYTES:
            return problem(413, "too long", [f"over {MAX_BODY_BYTES} bytes"])
        try:
            fields = parse_json(request.body)
        except (UnicodeDecodeError, ValueError) as error:
            return problem(400, "not JSON", [str(error)])
        found = schemas.problems(schemas.COMMENT_INPUT, fields)
        if found:
            return problem(422, "invalid input", found)
        result: dict[str, Any] = fields
        return result
