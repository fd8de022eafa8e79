"""A request's JSON text read as every site reads it: what Python's ``json`` takes but the site
cannot use is refused here, as text that is not JSON, before anything stores it or walks it.

- Nesting deeper than :data:`MAX_DEPTH`: ``json.loads`` recurses once per level and raises
  ``RecursionError`` near 1,000 (fewer under a deep stack: a framework's middleware); no input
  of the API nests beyond 2.
- A string with a lone surrogate (``"\\ud800"``): valid JSON syntax, but no Unicode text;
  stored, the database's UTF-8 encoding raises ``UnicodeEncodeError``.
"""

import json
import re
from typing import Any

MAX_DEPTH = 32
# The tokens that matter to the depth: strings (skipped whole, brackets in them are text) and
# the brackets themselves. A string runs to its closing quote or, unterminated, to the end; the
# possessive *+ never gives back what it took: each byte is looked at once, whatever the text
# (a string retried from every quote inside an unterminated one took 60 s for 64 KiB of \").
DEPTH_TOKENS = re.compile(rb'"(?:[^"\\]|\\.?)*+"?|[\[\]{}]', re.DOTALL)
OPENING = frozenset(b"[{")


class JsonTextError(json.JSONDecodeError):
    """The body is not JSON the site can read (a ``JSONDecodeError``, as ``json`` raises for
    text that is not JSON at all, so that a framework that parses the body itself, FastAPI,
    answers it as such)."""

    def __init__(self, message: str, document: str = "") -> None:
        super().__init__(message, document, 0)
        # JSONDecodeError's text names a line and column, which mean nothing here.
        self.args = (message,)

    def __str__(self) -> str:
        return self.msg


def nesting_depth(raw: bytes, most: int | None = None) -> int:
    """How deep the arrays and objects of the JSON text ``raw`` nest (brackets in strings are
    not counted); once deeper than ``most``, that depth (the rest is not looked at)."""
    depth = deepest = 0
    for token in DEPTH_TOKENS.finditer(raw):
        first = token.group()[0]
        if first in OPENING:
            depth += 1
            deepest = max(deepest, depth)
            if most is not None and deepest > most:
                break
        elif first != ord('"'):
            depth -= 1
    return deepest


def too_deep(raw: bytes) -> bool:
    """Whether ``raw`` nests deeper than :data:`MAX_DEPTH` (counted only when it has more
    opening brackets than that: the usual body is not scanned)."""
    if raw.count(b"[") + raw.count(b"{") <= MAX_DEPTH:
        return False
    return nesting_depth(raw, MAX_DEPTH) > MAX_DEPTH


def check_text(value: Any) -> None:
    """Every string in ``value`` (keys too) is Unicode text: UTF-8 can encode it."""
    if isinstance(value, str):
        try:
            value.encode()
        except UnicodeEncodeError:
            raise JsonTextError("a string with a lone surrogate (\\ud800-\\udfff)") from None
    elif isinstance(value, dict):
        for key, item in value.items():
            check_text(key)
            check_text(item)
    elif isinstance(value, list):
        for item in value:
            check_text(item)


def parse_json(raw: bytes | str) -> Any:
    """The value of the JSON text ``raw``; :class:`JsonTextError` (a ``ValueError``) when it is
    not JSON, is not UTF-8, nests deeper than :data:`MAX_DEPTH` or holds a lone surrogate."""
    data = raw.encode("utf-8", "surrogatepass") if isinstance(raw, str) else raw
    if too_deep(data):
        raise JsonTextError(f"nested deeper than {MAX_DEPTH} arrays or objects")
    try:
        value = json.loads(data)
    except (ValueError, RecursionError) as error:  # UnicodeDecodeError is a ValueError
        raise JsonTextError(str(error)) from None
    check_text(value)
    return value
