"""The API's bodies, described once as JSON Schema: input is checked against these, and the
OpenAPI document publishes the same objects, so the document is what the application does.

The checker knows only the keywords used here (type, properties, required,
additionalProperties, maxLength, minLength, pattern, items, maxItems, uniqueItems).
"""

import re
from typing import Any

from layerbench_sites.ids.codec import MAX_NUMBER, encode

Schema = dict[str, Any]

# A pretty id (and a tag's name): lowercase words joined by '-'. A well-formed short id is
# refused, so that a reference means one thing.
PRETTYID_PATTERN = r"^(?![0-9a-z]{13}$)[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$"
# No control characters but tab and newlines (PostgreSQL refuses NUL in text, among others).
TEXT_PATTERN = r"^[^\x00-\x08\x0b\x0c\x0e-\x1f\x7f]*$"
# An http(s) URL with an authority that parsers agree on: optional user info, a host name or
# IPv4 address (non-ASCII letters allowed), an optional port; then no space, C0 or C1 control
# (spelled out: `\s` means other things in ECMA and Python regexes). No IPv6 literal: a pattern
# cannot say which bracketed hosts Python's urlsplit takes, so brackets stay out of the
# authority. No `$`, which the validator turns into an end anchor.
URL_HOST_CHARS = r"A-Za-z0-9._~!&'()*+,;=%\u00a1-\uffff-"
URL_PATTERN = (
    rf"^https?://(?:[{URL_HOST_CHARS}:]*@)?[{URL_HOST_CHARS}]+"
    r"(?::[0-9]{0,5})?(?:[/?#][^\x00-\x20\x7f-\x9f]*)?$"
)
EMAIL_PATTERN = r"^[^@\x00-\x20\x7f-\x9f]+@[^@\x00-\x20\x7f-\x9f]+$"


def text(max_length: int, min_length: int = 0, pattern: str = TEXT_PATTERN) -> Schema:
    return {"type": "string", "minLength": min_length, "maxLength": max_length, "pattern": pattern}


def optional(schema: Schema) -> Schema:
    return {**schema, "type": [schema["type"], "null"]}


TAG_NAME = text(64, 1, PRETTYID_PATTERN)

VIDEO_FIELDS: dict[str, Schema] = {
    "title": text(200, 1),
    "url": optional(text(2000, 1, URL_PATTERN)),
    "description": optional(text(10_000)),
    "prettyid": optional(text(64, 1, PRETTYID_PATTERN)),
    "tags": {"type": "array", "items": TAG_NAME, "maxItems": 20, "uniqueItems": True},
}
VIDEO_REQUIRED = ["title"]

COMMENT_FIELDS: dict[str, Schema] = {
    "name": text(100, 1),
    "url": optional(text(2000, 1, URL_PATTERN)),
    "email": optional(text(254, 3, EMAIL_PATTERN)),
    "body": text(10_000, 1),
}
COMMENT_REQUIRED = ["name", "body"]


def body_schema(fields: dict[str, Schema], required: list[str]) -> Schema:
    return {
        "type": "object",
        "properties": fields,
        "required": required,
        "additionalProperties": False,
    }


VIDEO_INPUT = body_schema(VIDEO_FIELDS, VIDEO_REQUIRED)
VIDEO_PATCH = body_schema(VIDEO_FIELDS, [])
COMMENT_INPUT = body_schema(COMMENT_FIELDS, COMMENT_REQUIRED)
COMMENT_PATCH = body_schema(COMMENT_FIELDS, [])


def at_most(bound: str) -> str:
    """A pattern for the strings of ``len(bound)`` characters of 0-9 a-z that sort no later
    than ``bound`` (for base36 of one length, the numbers no greater)."""

    def below(char: str) -> str:
        if char <= "9":
            return "" if char == "0" else f"0-{chr(ord(char) - 1)}"
        return "0-9" if char == "a" else f"0-9a-{chr(ord(char) - 1)}"

    rest = len(bound) - 1
    alternatives = [
        f"{bound[:i]}[{below(char)}][0-9a-z]{{{rest - i}}}"
        for i, char in enumerate(bound)
        if below(char)
    ]
    return "^(?:" + "|".join([*alternatives, bound]) + ")$"


# A version-0 short id: 13 characters of base36, at most 2**64 - 1.
SHORT_ID = {"type": "string", "pattern": at_most(encode(MAX_NUMBER))}
VIDEO = {
    "type": "object",
    "properties": {
        "id": SHORT_ID,
        "prettyid": {"type": ["string", "null"]},
        "title": {"type": "string"},
        "url": {"type": ["string", "null"]},
        "description": {"type": ["string", "null"]},
        "tags": {"type": "array", "items": {"type": "string"}},
    },
    "required": ["id", "prettyid", "title", "url", "description", "tags"],
}
COMMENT = {
    "type": "object",
    "properties": {
        "id": SHORT_ID,
        "video_id": SHORT_ID,
        "name": {"type": "string"},
        "url": {"type": ["string", "null"]},
        "email": {"type": ["string", "null"]},
        "body": {"type": "string"},
    },
    "required": ["id", "video_id", "name", "url", "email", "body"],
}
ERROR = {
    "type": "object",
    "properties": {
        "title": {"type": "string"},
        "errors": {"type": "array", "items": {"type": "string"}},
    },
    "required": ["title"],
}


def page_of(item: Schema) -> Schema:
    return {
        "type": "object",
        "properties": {
            "items": {"type": "array", "items": item},
            "total": {"type": "integer", "minimum": 0},
            "offset": {"type": "integer", "minimum": 0},
            "limit": {"type": "integer", "minimum": 1},
            "next": {"type": ["string", "null"]},
        },
        "required": ["items", "total", "offset", "limit", "next"],
    }


TYPES = {
    "string": str,
    "array": list,
    "object": dict,
    "integer": int,
    "null": type(None),
}


def python_pattern(pattern: str) -> re.Pattern[str]:
    """The ECMA pattern as Python reads it: ``$`` is the very end (Python's ``$`` also
    matches before a final newline)."""
    return re.compile(pattern.replace("$", r"\Z"))


def problems(schema: Schema, value: Any, where: str = "body") -> list[str]:
    """What is wrong with ``value`` against ``schema``, one message each; [] when valid."""
    kinds = schema.get("type")
    if kinds is not None:
        names = kinds if isinstance(kinds, list) else [kinds]
        if not any(
            isinstance(value, TYPES[name]) and not isinstance(value, bool) for name in names
        ):
            return [f"{where}: expected {' or '.join(names)}"]
    if isinstance(value, str):
        return _string_problems(schema, value, where)
    if isinstance(value, list):
        return _array_problems(schema, value, where)
    if isinstance(value, dict):
        return _object_problems(schema, value, where)
    return []


def counted(number: int, noun: str) -> str:
    """``1 character``, ``2 characters``."""
    return f"{number} {noun}" if number == 1 else f"{number} {noun}s"


def _string_problems(schema: Schema, value: str, where: str) -> list[str]:
    found = []
    if len(value) < schema.get("minLength", 0):
        found.append(f"{where}: at least {counted(schema['minLength'], 'character')}")
    if len(value) > schema.get("maxLength", len(value)):
        found.append(f"{where}: at most {counted(schema['maxLength'], 'character')}")
    if "pattern" in schema and not python_pattern(schema["pattern"]).search(value):
        found.append(f"{where}: not of the expected form")
    return found


def _array_problems(schema: Schema, value: list[Any], where: str) -> list[str]:
    found = []
    if len(value) > schema.get("maxItems", len(value)):
        found.append(f"{where}: at most {counted(schema['maxItems'], 'item')}")
    if schema.get("uniqueItems") and len(set(map(repr, value))) != len(value):
        found.append(f"{where}: items repeat")
    for index, item in enumerate(value):
        found += problems(schema.get("items", {}), item, f"{where}[{index}]")
    return found


def _object_problems(schema: Schema, value: dict[str, Any], where: str) -> list[str]:
    found = []
    properties = schema.get("properties", {})
    for name in schema.get("required", []):
        if name not in value:
            found.append(f"{where}.{name}: required")
    for name, item in value.items():
        if name in properties:
            found += problems(properties[name], item, f"{where}.{name}")
        elif schema.get("additionalProperties") is False:
            found.append(f"{where}.{name}: unknown field")
    return found
