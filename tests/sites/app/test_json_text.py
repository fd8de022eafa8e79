"""The sites' reading of JSON text (layerbench_sites/app/api/json_text.py): what ``json`` takes
but no site can use is refused, the rest read as ``json`` reads it; brackets inside strings are
text, escaped quotes do not end a string; every input is scanned once (an unterminated string
full of escaped quotes was scanned again from each of them: 60 s for 64 KiB)."""

import json

import pytest

from layerbench_sites.app.api.json_text import MAX_DEPTH, JsonTextError, nesting_depth, parse_json

READ = [
    b'{"name": "a", "body": "b"}',
    b'{"body": "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[["}',
    b'{"body": "\\"[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[\\\\"}',
    "[" * MAX_DEPTH + "]" * MAX_DEPTH,
    '"\\ud83d\\ude00"',  # a surrogate pair: one character
]
REFUSED = [
    b'{"body": "\\ud800"}',
    b'{"\\udfff": 1}',
    b'["a", ["\\udc80"]]',
    b"[" * (MAX_DEPTH + 1) + b"]" * (MAX_DEPTH + 1),
    b"[" * 100_000,
    b'{"a": ' * 1000 + b"1" + b"}" * 1000,
    b"\xff",
    b"{",
    b'"\\' * 32768,  # unterminated, every quote escaped
]


@pytest.mark.parametrize("text", READ)
def test_what_a_site_can_use_is_read_as_json_reads_it(text: bytes | str) -> None:
    assert parse_json(text) == json.loads(text)


@pytest.mark.parametrize("text", REFUSED, ids=range(len(REFUSED)))
def test_what_no_site_can_use_is_refused_as_not_json(text: bytes) -> None:
    with pytest.raises(JsonTextError) as refused:
        parse_json(text)
    assert isinstance(refused.value, json.JSONDecodeError)  # as FastAPI expects
    assert str(refused.value)


@pytest.mark.parametrize(
    ("text", "depth"),
    [
        (b'{"a":"[[[["}', 1),
        (b'[["\\"[", {"b": ["]"]}]]', 4),
        (b'"\\\\"[', 1),
        (b'["a\\\\", ["b"]]', 2),
        (b'"[' + b"\\" * 10, 0),
    ],
)
def test_brackets_in_strings_are_text(text: bytes, depth: int) -> None:
    assert nesting_depth(text) == depth
