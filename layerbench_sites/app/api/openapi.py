"""``GET /openapi.json``: the API described from the same schemas that check its input."""

from typing import Any

from layerbench.site_contract import WRITE_ATTEMPTS_HEADER
from layerbench_sites.app.api import schemas

REF = {"name": "ref", "in": "path", "required": True, "schema": {"type": "string"},
       "description": "A short id, or a pretty id"}  # fmt: skip
COMMENT_REF = {**REF, "name": "cref"}
PAGING = [
    {"name": "offset", "in": "query",
     "schema": {"type": "integer", "minimum": 0, "maximum": 1_000_000_000}},
    {"name": "limit", "in": "query",
     "schema": {"type": "integer", "minimum": 1, "maximum": 100}},
]  # fmt: skip


def json_content(schema: dict[str, Any]) -> dict[str, Any]:
    return {"application/json": {"schema": schema}}


def response(description: str, schema: dict[str, Any] | None = None) -> dict[str, Any]:
    document: dict[str, Any] = {"description": description}
    if schema is not None:
        document["content"] = json_content(schema)
    return document


ERRORS = {
    "400": response("The body is not JSON", schemas.ERROR),
    "404": response("No such resource", schemas.ERROR),
    "413": response("The body is too large", schemas.ERROR),
    "422": response("Invalid input", schemas.ERROR),
}


# A write's body must be application/json: a cross-site page can make a browser send any other
# type without asking (text/plain, a form), never this one.
NOT_JSON = {"415": response("The body is not application/json", schemas.ERROR)}


def operation(summary: str, responses: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {"summary": summary, "responses": {**responses, **ERRORS}, **extra}


# On the answer to a write: how many times its transactions were begun (more than 1 when the
# database gave one up for another and the site ran it again).
WRITE_ATTEMPTS = {
    WRITE_ATTEMPTS_HEADER: {
        "description": "How many times the write's transactions were begun (a transaction the"
        " database gave up for another, a deadlock or a certification conflict, is run again)",
        "schema": {"type": "integer", "minimum": 1},
    }
}


def with_attempts(responses: dict[str, Any]) -> dict[str, Any]:
    """``responses``, each success saying how many attempts its write took."""
    return {
        status: {**answer, "headers": WRITE_ATTEMPTS} if status.startswith("2") else answer
        for status, answer in responses.items()
    }


def write(summary: str, responses: dict[str, Any], **extra: Any) -> dict[str, Any]:
    """An operation that changes what is stored: it takes a body only as application/json,
    and its answer tells how many attempts the write took."""
    return operation(summary, {**with_attempts(responses), **NOT_JSON}, **extra)


def body(schema: dict[str, Any]) -> dict[str, Any]:
    return {"required": True, "content": json_content(schema)}


def put_under_short_id(
    what: str, schema: dict[str, Any], input_schema: dict[str, Any], ref: dict[str, Any]
) -> dict[str, Any]:
    """A PUT creating or replacing ``what`` under the short id the client drew (path parameter
    ``ref``): 201 created, 200 replaced (or already so), 409 the id of another entity."""
    answers = {
        "200": response("Replaced", schema),
        "201": response("Created", schema),
        "409": response("Conflict", schemas.ERROR),
    }
    id_parameter = {**ref, "schema": schemas.SHORT_ID, "description": "A short id"}
    return write(
        f"Create or replace {what} under a client-chosen short id",
        answers,
        requestBody=body(input_schema),
        parameters=[id_parameter],
    )


def document() -> dict[str, Any]:
    video_page = schemas.page_of(schemas.VIDEO)
    comment_page = schemas.page_of(schemas.COMMENT)
    tag_filter = {"name": "tag", "in": "query", "schema": schemas.TAG_NAME}
    return {
        "openapi": "3.0.3",
        "info": {"title": "layerbench demo site", "version": "1"},
        "paths": {
            "/videos": {
                "get": operation("List videos", {"200": response("A page", video_page)},
                                 parameters=[*PAGING, tag_filter]),
                "post": write("Create a video",
                                  {"201": response("Created", schemas.VIDEO),
                                   "409": response("Conflict", schemas.ERROR)},
                                  requestBody=body(schemas.VIDEO_INPUT)),
            },
            "/videos/{ref}": {
                "parameters": [REF],
                "get": operation("Show a video", {"200": response("The video", schemas.VIDEO),
                                                  "304": response("Not modified")}),
                "put": put_under_short_id("a video", schemas.VIDEO, schemas.VIDEO_INPUT, REF),
                "patch": write("Update a video", {"200": response("Updated", schemas.VIDEO),
                                                      "409": response("Conflict", schemas.ERROR)},
                                   requestBody=body(schemas.VIDEO_PATCH)),
                "delete": write("Delete a video", {"204": response("Deleted")}),
            },
            "/videos/{ref}/history": {
                "parameters": [REF],
                "get": operation("A video's changes, or the video as it was",
                                 {"200": response("The history", {"type": "object"})},
                                 parameters=[{"name": "as_of", "in": "query",
                                              "schema": {"type": "string",
                                                         "format": "date-time"}}]),
            },
            "/videos/{ref}/comments": {
                "parameters": [REF],
                "get": operation("List a video's comments",
                                 {"200": response("A page", comment_page)}, parameters=PAGING),
                "post": write("Comment on a video",
                                  {"201": response("Created", schemas.COMMENT)},
                                  requestBody=body(schemas.COMMENT_INPUT)),
            },
            "/videos/{ref}/comments/{cref}": {
                "parameters": [REF, COMMENT_REF],
                "get": operation("Show a comment",
                                 {"200": response("The comment", schemas.COMMENT),
                                  "304": response("Not modified")}),
                "put": put_under_short_id(
                    "a comment", schemas.COMMENT, schemas.COMMENT_INPUT, COMMENT_REF
                ),
                "patch": write("Update a comment",
                                   {"200": response("Updated", schemas.COMMENT)},
                                   requestBody=body(schemas.COMMENT_PATCH)),
                "delete": write("Delete a comment", {"204": response("Deleted")}),
            },
            "/tags": {"get": operation("List tags", {"200": response("The tags",
                                                                     {"type": "object"})})},
            "/tags/{name}": {
                "parameters": [{"name": "name", "in": "path", "required": True,
                                "schema": {"type": "string"}}],
                "get": operation("A tag's videos", {"200": response("The tag",
                                                                    {"type": "object"})},
                                 parameters=PAGING),
            },
        },
    }  # fmt: skip
