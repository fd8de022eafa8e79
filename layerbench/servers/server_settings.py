"""Server settings as the user gives them, ``SECTION.KEY=VALUE``, and as an adapter reads them:
a frozen dataclass per section whose fields are the keys, with their types and defaults.

A section is an adapter's name (``mod_wsgi-daemon.processes=2``) or a server every adapter of
a family shares (``apache.max_request_workers=500``, ``nginx.workers=2``). A key no section has,
a section no adapter reads, or a value of the wrong type is a ``ConfigError`` naming what is
known; nothing is silently ignored.

Every setting has a type, and a range or an allowed set: a number is declared with its
:class:`Range` (``workers: Processes = 1``, ``keep_alive_s: Seconds = 5``), a name with a
``Literal`` of the names allowed (gunicorn imported ``worker_class=os.system``). A value out of
them is refused when the setting is read, before anything starts: ``gunicorn.backlog=-1`` had
started a server, ``gunicorn.workers=100000`` forked until the start timed out.
"""

import dataclasses
import math
import typing
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Annotated, Any, TypeVar

from layerbench.errors import ConfigError
from layerbench.words import did_you_mean

# section → key → value, as given (strings).
SettingsBook = dict[str, dict[str, str]]
# A setting's value as a run records it (its dataclass's field, a default filled in).
SettingValue = str | int | float | bool | None
# A section's settings as a run records them; every section a run read.
SettingsRecord = dict[str, SettingValue]
UsedSettings = dict[str, SettingsRecord]
T = TypeVar("T")

TRUE_WORDS = frozenset({"1", "true", "yes", "on"})
FALSE_WORDS = frozenset({"0", "false", "no", "off"})


@dataclass(frozen=True)
class Range:
    """The values a numeric setting may take, both ends included, and their unit, if said."""

    low: float
    high: float
    unit: str = ""

    def refusal(self, name: str, value: float) -> str:
        unit = f" {self.unit}" if self.unit else ""
        return f"{name} is {_number(self.low)} to {_number(self.high)}{unit}, not {_number(value)}"


# The bounds of the kinds of settings the servers share. A machine of this project has a few
# cores: a thousand processes or threads is more than any configuration measured here, and
# ``workers=100000`` is a mistake, not a configuration.
MAX_PROCESSES = 1024
MAX_THREADS = 1024
# Connections a server serves at once: Apache's MaxRequestWorkers is at most 20,000.
MAX_CONNECTIONS = 20_000
# listen()'s backlog: Linux cuts a larger one down to net.core.somaxconn.
MAX_BACKLOG = 65_535
MAX_SECONDS = 3600

Processes = Annotated[int, Range(1, MAX_PROCESSES)]
Threads = Annotated[int, Range(1, MAX_THREADS)]
# 0: none, the server's own limit lifted (or not used).
Connections = Annotated[int, Range(0, MAX_CONNECTIONS)]
Backlog = Annotated[int, Range(1, MAX_BACKLOG)]
# 0: none (no keep-alive, no timeout).
Seconds = Annotated[int, Range(0, MAX_SECONDS)]


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
    settings_type: type[T],
    book: SettingsBook,
    section: str,
    defaults: Mapping[str, object] | None = None,
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
    hints = typing.get_type_hints(settings_type, include_extras=True)
    values = {key: _convert(section, key, text, hints[key]) for key, text in given.items()}
    try:
        settings = settings_type(**{**(defaults or {}), **values})
    except ConfigError:
        raise
    except (TypeError, ValueError) as error:
        raise ConfigError(f"{section}: {error}") from None
    # After the section's own checks, whose messages say more than a range does.
    for key, value in values.items():
        bounds = setting_range(hints[key])[1]
        if bounds is not None and not bounds.low <= value <= bounds.high:  # type: ignore[operator]
            raise ConfigError(bounds.refusal(f"{section}.{key}", value))  # type: ignore[arg-type]
    return settings


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


def as_record(settings: object) -> SettingsRecord:
    """A settings dataclass as the plain dict a result records (its fields are scalars)."""
    return dataclasses.asdict(settings)  # type: ignore[call-overload, no-any-return]


def setting_range(kind: Any) -> tuple[Any, Range | None]:
    """A field's type without its ``Annotated`` range, and its range (None: none declared)."""
    if typing.get_origin(kind) is Annotated:
        ranges = [item for item in kind.__metadata__ if isinstance(item, Range)]
        return kind.__origin__, (ranges[0] if ranges else None)
    return kind, None


def _convert(section: str, key: str, text: str, annotated: Any) -> object:
    kind = setting_range(annotated)[0]
    if kind is bool:
        word = text.lower()
        if word in TRUE_WORDS:
            return True
        if word in FALSE_WORDS:
            return False
        raise ConfigError(f"{section}.{key} is on or off, not {text!r}")
    if kind is int:
        try:
            return int(text, 10)
        except ValueError:
            raise ConfigError(f"{section}.{key} is a whole number, not {_shown(text)}") from None
    if kind is float:
        try:
            number = float(text)
        except ValueError:
            number = math.nan
        if not math.isfinite(number):
            raise ConfigError(f"{section}.{key} is a finite number, not {_shown(text)}")
        return number
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


def _number(value: float) -> str:
    if isinstance(value, int) or value.is_integer():
        shown = f"{int(value):,}"
        return shown if len(shown) <= 40 else shown[:37] + "..."
    return f"{value:,g}"


def _shown(text: str) -> str:
    return repr(text if len(text) <= 40 else text[:37] + "...")
