"""The one decoder of documents (layerbench/typed_documents.py): a dataclass read from parsed
JSON with every field checked, each mistake one line naming the document and the field, and
written back into the same JSON."""

import enum
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Annotated, Literal

import pytest

from layerbench.documents import parse_json
from layerbench.errors import ConfigError
from layerbench.typed_documents import (
    OMIT_NONE,
    Bounds,
    Closed,
    decode,
    decode_at,
    decode_versioned,
    encode,
)


class Colour(enum.Enum):
    RED = "red"
    BLUE = "blue"


@dataclass(frozen=True)
class Process:
    pid: int
    cpu_s: Annotated[float, Bounds(low=0)]
    host: str | None = field(default=None, metadata=OMIT_NONE)


@dataclass(frozen=True)
class Run:
    version: int
    name: str
    colour: Colour
    kind: Literal["ladder", "mix"]
    processes: tuple[Process, ...]
    roles: Annotated[dict[str, Process], Bounds(most=2)] = field(default_factory=dict)
    rates: Annotated[list[float], Bounds(most=3)] = field(default_factory=list)
    finished_at: str | None = None
    interrupted: bool = False
    setting: str | int | float | bool | None = None
    extra: Mapping[str, object] | None = None


GOOD = {
    "version": 2,
    "name": "a run",
    "colour": "blue",
    "kind": "mix",
    "processes": [{"pid": 7, "cpu_s": 1.5, "host": "db1"}, {"pid": 8, "cpu_s": 0}],
    "roles": {"server": {"pid": 9, "cpu_s": 2.0}},
    "rates": [1, 2.5],
    "finished_at": None,
    "interrupted": True,
    "setting": 4,
    "extra": {"any": [1, "x"]},
    "figures": "a key this reader does not know",
}


def test_a_document_reads_into_its_types() -> None:
    run = decode(Run, GOOD, "run.json")
    assert run == Run(
        version=2,
        name="a run",
        colour=Colour.BLUE,
        kind="mix",
        processes=(Process(7, 1.5, "db1"), Process(8, 0.0)),
        roles={"server": Process(9, 2.0)},
        rates=[1.0, 2.5],
        interrupted=True,
        setting=4,
        extra={"any": [1, "x"]},
    )
    assert isinstance(run.processes[1].cpu_s, float) and isinstance(run.rates[0], float)


def test_what_is_written_reads_back_the_same() -> None:
    run = decode(Run, GOOD, "run.json")
    written = json.loads(json.dumps(encode(run)))
    assert decode(Run, written, "run.json") == run
    # None is left out where the field says so, kept elsewhere; a tuple is a list.
    assert written["processes"][1] == {"pid": 8, "cpu_s": 0.0}
    assert written["finished_at"] is None and written["colour"] == "blue"


def test_a_missing_field_takes_its_default() -> None:
    minimal = {key: GOOD[key] for key in ("version", "name", "colour", "kind", "processes")}
    run = decode(Run, minimal, "run.json")
    assert run.roles == {} and run.rates == [] and run.finished_at is None


def _with(path: tuple[str | int, ...], value: object) -> dict[str, object]:
    document = json.loads(json.dumps(GOOD))
    place = document
    for step in path[:-1]:
        place = place[step]
    if value is KeyError:
        del place[path[-1]]
    else:
        place[path[-1]] = value
    return dict(document)


@pytest.mark.parametrize(
    ("path", "value", "message"),
    [
        (("name",), KeyError, "run.json: name is missing"),
        (("name",), 5, "run.json: name is a string, not 5"),
        (("version",), 2.5, "run.json: version is a whole number, not 2.5"),
        (("version",), True, "run.json: version is a whole number, not true"),
        (("interrupted",), "yes", 'run.json: interrupted is true or false, not "yes"'),
        (("colour",), "green", 'run.json: colour is one of "red", "blue", not "green"'),
        (("kind",), "matrix", 'run.json: kind is one of "ladder", "mix", not "matrix"'),
        (("processes",), {}, "run.json: processes is a list, not an object"),
        (("processes", 1, "cpu_s"), -5, "run.json: processes[1].cpu_s is at least 0, not -5"),
        (("processes", 0, "pid"), KeyError, "run.json: processes[0].pid is missing"),
        (("roles", "server", "pid"), "x", 'run.json: roles.server.pid is a whole number, not "x"'),
        (("rates",), [1, 2, 3, 4], "run.json: rates holds 0 to 3 items, not 4"),
        (("roles", "a"), {"pid": 1, "cpu_s": 1}, None),
        (
            ("roles",),
            {r: {"pid": 1, "cpu_s": 1} for r in "abc"},
            "run.json: roles holds 0 to 2 items, not 3",
        ),
        (("finished_at",), 3, "run.json: finished_at is a string, not 3"),
        (
            ("setting",),
            [],
            "run.json: setting is a string or a whole number or a number or "
            "true or false or null, not a list",
        ),
    ],
)
def test_a_wrong_field_is_one_line_naming_it(
    path: tuple[str | int, ...], value: object, message: str | None
) -> None:
    if message is None:  # within its bounds: read
        decode(Run, _with(path, value), "run.json")
        return
    with pytest.raises(ConfigError) as refused:
        decode(Run, _with(path, value), "run.json")
    assert str(refused.value) == message


def test_a_document_that_is_not_an_object_is_named() -> None:
    with pytest.raises(ConfigError, match=r"^run.json is an object, not a list$"):
        decode(Run, [], "run.json")


def test_parsed_json_without_nan_then_typed() -> None:
    """NaN is refused by the parser before the decoder sees it; the decoder refuses inf that
    reached it some other way."""
    with pytest.raises(ConfigError, match="not JSON"):
        parse_json('{"pid": 1, "cpu_s": NaN}', "p.json")
    with pytest.raises(ConfigError, match=r"^p.json: cpu_s is a finite number, not inf$"):
        decode(Process, {"pid": 1, "cpu_s": float("inf")}, "p.json")


@dataclass(frozen=True)
class Hand(Closed):
    """A file a person writes: a typo is refused."""

    roles: list[str]
    subnet: str = "10.77.0.0/24"


def test_a_closed_document_refuses_an_unknown_key() -> None:
    assert decode(Hand, {"roles": ["db"]}, "t.toml") == Hand(["db"])
    with pytest.raises(ConfigError) as refused:
        decode(Hand, {"roles": ["db"], "subnett": "x"}, "t.toml")
    assert str(refused.value) == "t.toml: unknown keys ['subnett'] (roles, subnet)"


@dataclass(frozen=True)
class OldRun:
    version: int
    rate: float


@dataclass(frozen=True)
class NewRun:
    version: int
    rates: tuple[float, ...]


def _read_v1(value: object, what: str) -> NewRun:
    old = decode(OldRun, value, what)
    return NewRun(2, (old.rate,))


def _read_v2(value: object, what: str) -> NewRun:
    return decode(NewRun, value, what)


READERS = {1: _read_v1, 2: _read_v2}


def test_each_version_is_read_into_the_current_type() -> None:
    assert decode_versioned(READERS, {"version": 1, "rate": 5}, "r.json") == NewRun(2, (5.0,))
    assert decode_versioned(READERS, {"version": 2, "rates": [5]}, "r.json") == NewRun(2, (5.0,))


@pytest.mark.parametrize("version", [3, "2", True, None])
def test_a_version_without_a_reader_is_refused_naming_those_there_are(version: object) -> None:
    with pytest.raises(ConfigError) as refused:
        decode_versioned(READERS, {"version": version}, "r.json")
    assert str(refused.value) == f"r.json has version {version!r}; this layerbench reads 1, 2"


def test_a_part_of_a_document_names_its_fields_after_its_place() -> None:
    with pytest.raises(ConfigError) as refused:
        decode_at(Process, {"pid": 1, "cpu_s": "x"}, "run.json: roles.server")
    assert str(refused.value) == 'run.json: roles.server.cpu_s is a number, not "x"'
