"""Server settings as the user gives them, ``SECTION.KEY=VALUE``, and as an adapter reads them:
a frozen dataclass per section whose fields are the keys, with their types and defaults.

A section is an adapter's name (``mod_wsgi-daemon.processes=2``) or a server every adapter of
a family shares (``apache.max_request_workers=500``, ``nginx.workers=2``). A key no section has,
a section no adapter reads, or a value of the wrong type is a ``ConfigError`` naming what is
known; nothing is silently ignored.
"""

import dataclasses
import typing
from collections.abc import Iterable
from typing import Any, TypeVar

from layerbench.errors import ConfigError
from layerbench.words import did_you_mean

# section → key → value, as given (strings).
SettingsBook = dict[str, dict[str, str]]
T = TypeVar("T")

TRUE_WORDS = frozenset({"1", "true", "yes", "on"})
FALSE_WORDS = frozenset({"0", "false", "no", "off"})


def parse_assignment(text: str, default_section: str | None = None) -> tuple[str, str, str]:
    """``SECTION.KEY=VALUE`` → (section, key, value); ``KEY=VALUE`` takes ``default_section``."""
    name, equals, value = text.partition("=")
    if not equals or not name.strip():
        raise ConfigError(f"setting {text!r} is not of the form SERVER.KEY=VALUE")
    section, dot, key = name.strip().rpartition(".")
    if not dot:
        if default_section is None:
            raise ConfigError(f"setting {text!r} names no server: write SERVER.KEY=VALUE")
        section = default_section
    if not section or not key:
        raise ConfigError(f"setting {text!r} is not of the form SERVER.KEY=VALUE")
    return section, key, value.strip()


def add_assignments(
    book: SettingsBook, texts: Iterable[str], default_section: str | None = None
) -> SettingsBook:
    """A new book: ``book`` with ``texts`` added (later ones win)."""
    merged = {section: dict(values) for section, values in book.items()}
    for text in texts:
        section, key, value = parse_assignment(text, default_section)
        merged.setdefault(section, {})[key] = value
    return merged


def read_section(
    settings_type: type[T], book: SettingsBook, section: str, defaults: dict[str, Any] | None = None
) -> T:
    """The ``section`` of ``book`` as a ``settings_type``; what it does not give comes from
    ``defaults``, then from the dataclass."""
    given = book.get(section, {})
    fields = {field.name: field for field in dataclasses.fields(settings_type)}  # type: ignore[arg-type]
    unknown = sorted(set(given) - set(fields))
    if unknown:
        raise ConfigError(
            did_you_mean(
                f"{section} has no setting {', '.join(unknown)}",
                unknown[0],
                sorted(fields),
                "its settings are: " + ", ".join(sorted(fields)),
            )
        )
    hints = typing.get_type_hints(settings_type)
    values = {key: _convert(section, key, text, hints[key]) for key, text in given.items()}
    try:
        return settings_type(**{**(defaults or {}), **values})
    except ConfigError:
        raise
    except (TypeError, ValueError) as error:
        raise ConfigError(f"{section}: {error}") from None


def check_sections(book: SettingsBook, known: Iterable[str]) -> None:
    """A section that nothing reads is a typo: say so before anything starts."""
    known_sections = set(known)
    unknown = sorted(set(book) - known_sections)
    if unknown:
        raise ConfigError(
            did_you_mean(
                f"no server reads settings for {', '.join(unknown)}",
                unknown[0],
                sorted(known_sections),
                "the settings of this run are for: "
                + (", ".join(sorted(known_sections)) or "nothing"),
            )
        )


def as_record(settings: object) -> dict[str, Any]:
    """A settings dataclass as the plain dict a result records."""
    return dataclasses.asdict(settings)  # type: ignore[call-overload, no-any-return]


def _convert(section: str, key: str, text: str, kind: Any) -> object:
    if kind is bool:
        word = text.lower()
        if word in TRUE_WORDS:
            return True
        if word in FALSE_WORDS:
            return False
        raise ConfigError(f"{section}.{key} is on or off, not {text!r}")
    if kind is int:
        try:
            return int(text)
        except ValueError:
            raise ConfigError(f"{section}.{key} is a whole number, not {text!r}") from None
    if kind is float:
        try:
            return float(text)
        except ValueError:
            raise ConfigError(f"{section}.{key} is a number, not {text!r}") from None
    choices = typing.get_args(kind) if typing.get_origin(kind) is typing.Literal else ()
    if choices:
        if text not in choices:
            known = ", ".join(map(str, choices))
            raise ConfigError(
                did_you_mean(
                    f"{section}.{key} is one of {known}, not {text!r}", text, map(str, choices), ""
                )
            )
        return text
    return text
