"""Every document layerbench reads (a results file, a baseline, a topology, a stored run), read
and parsed the one way: a regular file only, of a bounded size, its JSON without NaN,
Infinity, numbers of unbounded size or nesting deep enough to exhaust the stack, and its fields
checked by their schema when read, before anything starts. Each way it can be wrong is a
:class:`~layerbench.errors.ConfigError` of one line naming the document.

``/dev/zero`` would be read until memory is gone and a FIFO without a writer would block for
ever: a file is opened without blocking and refused unless it is regular (as the load
generator's ``input_file.rs`` does)."""

import json
import math
import os
import stat
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from layerbench.errors import ConfigError

MIB = 1 << 20
# A ladder's results with every trial's histogram are well under a MiB a rung; a topology or a
# baseline, a few KiB.
MAX_DOCUMENT_BYTES = 64 * MIB
# Digits of an integer in a document: a 64-bit number has at most 20.
MAX_INT_DIGITS = 20


def read_text(path: Path, what: str, limit: int = MAX_DOCUMENT_BYTES, *, missing: str = "") -> str:
    """The text of the regular file ``path`` (``what`` names it in an error: "the topology
    x.toml"), at most ``limit`` bytes of UTF-8; ``missing`` is the error when there is none."""
    try:
        descriptor = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY | os.O_CLOEXEC)
    except FileNotFoundError:
        raise ConfigError(missing or f"cannot read {what}: no such file") from None
    except OSError as error:
        raise ConfigError(f"cannot read {what}: {error.strerror}") from None
    # Checked before the descriptor becomes a file object: fdopen refuses a directory with an
    # IsADirectoryError of its own (and leaves the descriptor open).
    status = os.fstat(descriptor)
    if not stat.S_ISREG(status.st_mode):
        os.close(descriptor)
        raise ConfigError(f"cannot read {what}: it is not a regular file")
    with os.fdopen(descriptor, "rb") as file:
        try:
            if status.st_size > limit:
                raise ConfigError(f"{what} is larger than {limit // MIB} MiB")
            data = file.read(limit + 1)
        except OSError as error:
            raise ConfigError(f"cannot read {what}: {error.strerror}") from None
    if len(data) > limit:
        raise ConfigError(f"{what} is larger than {limit // MIB} MiB")
    try:
        return data.decode()
    except UnicodeDecodeError as error:
        raise ConfigError(f"{what} is not UTF-8 text (byte {error.start})") from None


def parse_json(text: str | bytes, what: str, hint: str = "") -> Any:
    """``text``'s JSON: NaN, Infinity, a number too large for a float or an integer of more
    than 20 digits, or nesting too deep, is a ConfigError naming ``what`` (and ``hint``, a
    likely cause: " (edited by hand?)")."""
    try:
        return json.loads(
            text, parse_constant=_no_constant, parse_int=_bounded_int, parse_float=_finite_float
        )
    except RecursionError:
        raise ConfigError(f"{what} is nested too deeply to be read{hint}") from None
    except ValueError as error:
        raise ConfigError(f"{what} is not JSON{hint}: {error}") from None


def read_json(path: Path, what: str, limit: int = MAX_DOCUMENT_BYTES, *, missing: str = "") -> Any:
    """The JSON of the regular file ``path``: :func:`read_text`, then :func:`parse_json`."""
    return parse_json(read_text(path, what, limit, missing=missing), what)


def parse_toml(text: str, what: str) -> dict[str, Any]:  # boundary: TOML just parsed
    """``text``'s TOML, refused as JSON is: no nan or inf, no nesting too deep; its schema is
    checked by :func:`layerbench.typed_documents.decode`."""
    try:
        return tomllib.loads(text, parse_float=_finite_float)
    except RecursionError:
        raise ConfigError(f"{what} is nested too deeply to be read") from None
    except tomllib.TOMLDecodeError as error:
        raise ConfigError(f"{what} is not TOML: {error}") from None
    except ValueError as error:
        raise ConfigError(f"{what} is not TOML: {error}") from None


def _no_constant(name: str) -> float:
    raise ValueError(f"{name} is not a number JSON has")


def _bounded_int(digits: str) -> int:
    if len(digits.lstrip("-")) > MAX_INT_DIGITS:
        raise ValueError(f"an integer of {len(digits.lstrip('-'))} digits")
    return int(digits)


def _finite_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"{text[:40]} is not a finite number")
    return value


# -- the schema of what was read -------------------------------------------------------------


def number(
    value: object,
    where: str,
    *,
    low: float | None = None,
    high: float | None = None,
    above: float | None = None,
    integer: bool = False,
) -> float:
    """``value`` as a finite number (an int when ``integer``) within its bounds: ``low`` and
    ``high`` included, ``above`` excluded; ``where`` names the field in an error. A boolean is
    not a number."""
    kind = "a whole number" if integer else "a number"
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ConfigError(f"{where} is {kind}, not {shown(value)}")
    if integer and not isinstance(value, int):
        raise ConfigError(f"{where} is {kind}, not {shown(value)}")
    if not math.isfinite(value):
        raise ConfigError(f"{where} is a finite number, not {value}")
    if (low is not None and value < low) or (high is not None and value > high):
        raise ConfigError(f"{where} is {_bounds(low, high)}, not {shown(value)}")
    if above is not None and value <= above:
        raise ConfigError(f"{where} is more than {above:g}, not {shown(value)}")
    return value


def mapping(value: object, where: str) -> dict[str, Any]:  # boundary: an object not yet typed
    """``value`` as a JSON object (its keys are strings)."""
    if not isinstance(value, Mapping):
        raise ConfigError(f"{where} is an object, not {shown(value)}")
    return dict(value)


def sequence(value: object, where: str, *, least: int = 0, most: int) -> list[Any]:
    """``value`` as a JSON array of ``least`` to ``most`` items."""
    if not isinstance(value, list):
        raise ConfigError(f"{where} is a list, not {shown(value)}")
    if not least <= len(value) <= most:
        raise ConfigError(f"{where} holds {least} to {most:,} items, not {len(value):,}")
    return value


def text(value: object, where: str) -> str:
    if not isinstance(value, str):
        raise ConfigError(f"{where} is a string, not {shown(value)}")
    return value


def scalar(value: object, where: str) -> str | int | float | bool | None:
    """A string, a number (finite), a boolean or null: what a recorded setting may be."""
    if value is None or isinstance(value, str | bool):
        return value
    return number(value, where)


def _bounds(low: float | None, high: float | None) -> str:
    if low is not None and high is not None:
        return f"{low:g} to {high:g}"
    if low is not None:
        return f"at least {low:g}"
    return f"at most {high:g}"


def shown(value: object) -> str:
    """``value`` as an error message shows it: JSON, at most 40 characters."""
    if isinstance(value, dict):
        return "an object"
    if isinstance(value, list):
        return "a list"
    shown = f"{value:g}" if isinstance(value, float) else json.dumps(value)
    return shown if len(shown) <= 40 else shown[:37] + "..."
