"""A document's schema as a frozen dataclass, and the one decoder that reads parsed JSON or TOML
into it (:func:`decode`) and writes it back (:func:`encode`).

A field's Python type is its schema: ``int``, ``float`` (an integer is one too), ``str``,
``bool``, ``None``, a union of them (``float | None``), ``Literal[...]``, an ``Enum`` (by its
value), ``list[X]``, ``tuple[X, ...]``, ``dict[str, X]``, another dataclass, and
``Annotated[X, Bounds(...)]`` for a number's range or a list's length. A field with a default
may be missing; a key the class does not name is ignored (a document gains fields without a
version change), unless the class says ``CLOSED`` (a file a person writes: a typo is refused).
Every wrong value is a one-line :class:`~layerbench.errors.ConfigError` naming the document
and the field: ``ladder.json: rungs[2].requests_per_s is at least 0, not -5``.

A versioned document is read by :func:`decode_versioned`: its ``version`` selects a reader,
and a reader of an old version upgrades what it read into the current type.

Why dataclasses and not msgspec or pydantic: the core stays without a compiled dependency,
mypy (strict) reads dataclasses as they are, and the messages are the ones every other reader
of :mod:`layerbench.documents` gives.
"""

import dataclasses
import enum
import types
import typing
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import (
    Annotated,
    Any,
    ClassVar,
    Literal,
    TypeAlias,
    TypeVar,
    Union,
    get_args,
    get_origin,
)

from layerbench.documents import mapping, number, sequence, shown, text
from layerbench.errors import ConfigError

T = TypeVar("T")
# JSON as a writer makes it, what json.dumps takes: checked by mypy to hold nothing else (a
# Path, a dataclass). Mapping and Sequence, not dict and list, so that a dict[str, float] is one.
JsonValue: TypeAlias = (
    "str | int | float | bool | Sequence[JsonValue] | Mapping[str, JsonValue] | None"
)
JsonObject = dict[str, JsonValue]
# A list's length when its field says none: a histogram's buckets are a few thousand.
MAX_ITEMS = 1_000_000
# A field that is left out of the encoded document when it is None (``field(metadata=...)``).
OMIT_NONE = {"omit_none": True}


@dataclass(frozen=True)
class Bounds:
    """A number's range (``low`` and ``high`` included, ``above`` excluded) or how many items
    a list or an object holds (``least`` to ``most``): ``Annotated[float, Bounds(low=0)]``."""

    low: float | None = None
    high: float | None = None
    above: float | None = None
    least: int = 0
    most: int = MAX_ITEMS


NO_BOUNDS = Bounds()


@dataclass(frozen=True)
class Refusal:
    """What a field's error says instead of the decoder's, after the field's name:
    ``Annotated[tuple[str, ...], Refusal("must be a list of client, app")]``."""

    text: str


class Closed:
    """A document class whose unknown keys are refused (mix it in, or set ``CLOSED``); the
    error names its keys, or what ``KEYS`` says of them."""

    CLOSED: ClassVar[bool] = True
    KEYS: ClassVar[str] = ""


def decode(kind: type[T], value: object, what: str) -> T:
    """``value`` (JSON or TOML just parsed) as ``kind``, a dataclass; ``what`` names the
    document in an error ("the topology x.toml")."""
    if isinstance(kind, type) and dataclasses.is_dataclass(kind):
        return typing.cast(T, _dataclass(kind, value, what, root=True))
    return typing.cast(T, _decode(kind, value, what, NO_BOUNDS))


def decode_at(kind: type[T], value: object, where: str) -> T:
    """As :func:`decode`, of a part of a document: ``where`` is its place in it
    ("ladder.json: rungs[2].load"), its fields named after a dot."""
    return typing.cast(T, _decode(kind, value, where, NO_BOUNDS))


def decode_versioned(
    readers: Mapping[int, Callable[[object, str], T]], value: object, what: str
) -> T:
    """``value`` read by the reader of its ``version`` (each reader of an old version returns
    the current type); a version without a reader is refused, naming those there are."""
    version = mapping(value, what).get("version")
    if not isinstance(version, int) or isinstance(version, bool) or version not in readers:
        known = ", ".join(str(number) for number in sorted(readers))
        raise ConfigError(f"{what} has version {version!r}; this layerbench reads {known}")
    return readers[version](value, what)


def as_json(parsed: Mapping[str, object]) -> JsonObject:
    """An object of a document just parsed (:func:`layerbench.documents.parse_json` makes
    nothing but JSON), typed as the JSON it is, to be kept and written back as it was."""
    return typing.cast(JsonObject, dict(parsed))


def encode(document: object) -> Any:
    """A dataclass (or a value of a field's type) as JSON: objects, lists, strings, numbers,
    booleans and null; a tuple is a list, an Enum its value."""
    if dataclasses.is_dataclass(document) and not isinstance(document, type):
        encoded: dict[str, object] = {}
        for field in dataclasses.fields(document):
            value = getattr(document, field.name)
            if value is None and field.metadata.get("omit_none"):
                continue
            encoded[_key(field)] = encode(value)
        return encoded
    if isinstance(document, enum.Enum):
        return document.value
    if isinstance(document, list | tuple):
        return [encode(item) for item in document]
    if isinstance(document, dict):
        return {str(key): encode(value) for key, value in document.items()}
    return document


def _key(field: dataclasses.Field[Any]) -> str:
    return str(field.metadata.get("key", field.name))


def _decode(kind: Any, value: object, where: str, bounds: Bounds) -> Any:
    origin = get_origin(kind)
    if origin is Annotated:
        return _annotated(get_args(kind), value, where, bounds)
    if kind is Any or kind is object:
        return value  # a boundary: the JSON as it is (the load generator's own document)
    if origin is Union or origin is types.UnionType:
        return _union(get_args(kind), value, where, bounds)
    if origin is not None:
        return _container(origin, get_args(kind), value, where, bounds)
    if isinstance(kind, type) and dataclasses.is_dataclass(kind):
        return _dataclass(kind, value, where, root=False)
    return _scalar(kind, value, where, bounds)


def _annotated(arguments: tuple[Any, ...], value: object, where: str, bounds: Bounds) -> Any:
    """``Annotated[X, Bounds(...), Refusal(...)]``: X within its bounds, its error the
    refusal's words when it has one."""
    inner, *extras = arguments
    given = next((extra for extra in extras if isinstance(extra, Bounds)), bounds)
    refusal = next((extra for extra in extras if isinstance(extra, Refusal)), None)
    try:
        return _decode(inner, value, where, given)
    except ConfigError:
        if refusal is None:
            raise
        raise ConfigError(f"{where} {refusal.text}") from None


def _scalar(kind: Any, value: object, where: str, bounds: Bounds) -> Any:
    """A boolean, a number, a string, null, or an Enum's member by its value."""
    if kind is bool:
        if not isinstance(value, bool):
            raise ConfigError(f"{where} is true or false, not {shown(value)}")
        return value
    if kind is int or kind is float:
        found = number(
            value, where, low=bounds.low, high=bounds.high, above=bounds.above,
            integer=kind is int,
        )  # fmt: skip
        return int(found) if kind is int else float(found)
    if kind is str:
        return text(value, where)
    if kind is None or kind is types.NoneType:
        if value is not None:
            raise ConfigError(f"{where} is null, not {shown(value)}")
        return None
    if isinstance(kind, type) and issubclass(kind, enum.Enum):
        return _one_of(kind, tuple(member.value for member in kind), value, where)
    raise TypeError(f"no document type {kind!r}")


def _one_of(kind: Any, choices: tuple[Any, ...], value: object, where: str) -> Any:
    """``value`` if it is one of ``choices`` (true is not 1), as ``kind`` makes it."""
    if not any(choice == value and type(choice) is type(value) for choice in choices):
        named = ", ".join(shown(choice) for choice in choices)
        raise ConfigError(f"{where} is one of {named}, not {shown(value)}")
    return kind(value)


def _container(
    origin: Any, arguments: tuple[Any, ...], value: object, where: str, bounds: Bounds
) -> Any:
    """A Literal's value, a list, a tuple, or an object of string keys."""
    if origin is Literal:
        return _one_of(lambda chosen: chosen, arguments, value, where)
    if origin is list or origin is tuple:
        return _sequence(origin, arguments, value, where, bounds)
    if origin in (dict, Mapping) and arguments[0] is str:
        table = mapping(value, where)
        if not bounds.least <= len(table) <= bounds.most:
            raise ConfigError(
                f"{where} holds {bounds.least} to {bounds.most:,} items, not {len(table):,}"
            )
        return {
            key: _decode(arguments[1], item, f"{where}.{key}", NO_BOUNDS)
            for key, item in table.items()
        }
    raise TypeError(f"no document type {origin!r}{list(arguments)}")


def _union(arms: tuple[Any, ...], value: object, where: str, bounds: Bounds) -> Any:
    if value is None and types.NoneType in arms:
        return None
    others = [arm for arm in arms if arm is not types.NoneType]
    if len(others) == 1:
        return _decode(others[0], value, where, bounds)
    for arm in others:
        try:
            return _decode(arm, value, where, bounds)
        except ConfigError:
            continue
    names = " or ".join(_name(arm) for arm in arms)
    raise ConfigError(f"{where} is {names}, not {shown(value)}")


def _sequence(
    origin: Any, arguments: tuple[Any, ...], value: object, where: str, bounds: Bounds
) -> Any:
    if origin is tuple and not (len(arguments) == 2 and arguments[1] is Ellipsis):
        items = sequence(value, where, least=len(arguments), most=len(arguments))
        return tuple(
            _decode(kind, item, f"{where}[{i}]", NO_BOUNDS)
            for i, (kind, item) in enumerate(zip(arguments, items, strict=True))
        )
    items = sequence(value, where, least=bounds.least, most=bounds.most)
    decoded = [
        _decode(arguments[0], item, f"{where}[{i}]", NO_BOUNDS) for i, item in enumerate(items)
    ]
    return tuple(decoded) if origin is tuple else decoded


def _dataclass(kind: type[Any], value: object, where: str, *, root: bool) -> Any:
    table = mapping(value, where)
    # A field's place: "ladder.json: rungs", then "ladder.json: rungs[0].app".
    prefix = f"{where}: " if root else f"{where}."
    fields = _fields(kind)
    if getattr(kind, "CLOSED", False):
        unknown = sorted(set(table) - {key for key, _, _ in fields})
        if unknown:
            named = getattr(kind, "KEYS", "") or ", ".join(key for key, _, _ in fields)
            raise ConfigError(f"{where}: unknown keys {unknown} ({named})")
    given: dict[str, object] = {}
    for key, field, hint in fields:
        if key in table:
            given[field.name] = _decode(hint, table[key], prefix + key, NO_BOUNDS)
        elif field.default is dataclasses.MISSING and field.default_factory is dataclasses.MISSING:
            raise ConfigError(f"{prefix}{key} is missing")
    return kind(**given)


# Each class's fields, their keys and types: read once.
_FIELDS: dict[type[Any], tuple[tuple[str, dataclasses.Field[Any], Any], ...]] = {}


def _fields(kind: type[Any]) -> tuple[tuple[str, dataclasses.Field[Any], Any], ...]:
    if kind not in _FIELDS:
        hints = typing.get_type_hints(kind, include_extras=True)
        _FIELDS[kind] = tuple(
            (_key(field), field, hints[field.name])
            for field in dataclasses.fields(kind)
            if field.init
        )
    return _FIELDS[kind]


def _name(kind: Any) -> str:
    names = {bool: "true or false", int: "a whole number", float: "a number", str: "a string"}
    if kind is types.NoneType:
        return "null"
    if get_origin(kind) is Annotated:
        return _name(get_args(kind)[0])
    if get_origin(kind) in (list, tuple):
        return "a list"
    if get_origin(kind) is dict or dataclasses.is_dataclass(kind):
        return "an object"
    return names.get(kind, getattr(kind, "__name__", str(kind)))
