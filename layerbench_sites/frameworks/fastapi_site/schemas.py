"""The comments API's Pydantic models, made from the API's JSON Schema
(:data:`layerbench_sites.app.api.schemas.COMMENT_FIELDS`: the same bounds and patterns, read with
Python's ``re`` as the bare application reads them), and Pydantic's errors told in the API's
words (``body.body: required``), so that every application answers a bad comment alike."""

from collections.abc import Callable
from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field
from pydantic_core import ErrorDetails

from layerbench_sites.app.api.schemas import COMMENT_FIELDS, Schema, counted, python_pattern


def text_field(schema: Schema) -> Any:
    return Field(
        min_length=schema["minLength"],
        max_length=schema["maxLength"],
        pattern=python_pattern(schema["pattern"]).pattern,
    )


Name = Annotated[str, text_field(COMMENT_FIELDS["name"])]
Url = Annotated[str, text_field(COMMENT_FIELDS["url"])]
Email = Annotated[str, text_field(COMMENT_FIELDS["email"])]
Body = Annotated[str, text_field(COMMENT_FIELDS["body"])]


class CommentInput(BaseModel):
    """A comment as a client posts it."""

    model_config = ConfigDict(extra="forbid", strict=True, regex_engine="python-re")

    name: Name
    body: Body
    url: Url | None = None
    email: Email | None = None


class CommentOutput(BaseModel):
    """A comment as the API answers it (the bare application's fields)."""

    id: str
    video_id: str
    name: str
    url: str | None
    email: str | None
    body: str


# Pydantic's error types → the API checker's words (given the error's context).
WORDS: dict[str, Callable[[dict[str, Any]], str]] = {
    "missing": lambda _: "required",
    "extra_forbidden": lambda _: "unknown field",
    "string_too_short": lambda c: f"at least {counted(c['min_length'], 'character')}",
    "string_too_long": lambda c: f"at most {counted(c['max_length'], 'character')}",
    "string_pattern_mismatch": lambda _: "not of the expected form",
    "string_type": lambda _: "expected string",
    "model_type": lambda _: "expected object",
    "model_attributes_type": lambda _: "expected object",
    "dict_type": lambda _: "expected object",
}


def error_words(error: ErrorDetails) -> str:
    """One of Pydantic's errors as the API's checker words it (``body.name: required``)."""
    where = ".".join(str(part) for part in error["loc"])
    words = WORDS.get(error["type"])
    return f"{where}: {words(error.get('ctx') or {}) if words else error['msg']}"
