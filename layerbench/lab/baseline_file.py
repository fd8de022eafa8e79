"""A smoke test's baseline file, whatever it counts (req/s: :mod:`layerbench.lab.smoke_baseline`;
instructions: :mod:`layerbench.cost.instructions_baseline`): one JSON document holding every
URL's values, one per repeat, under one field, and the conditions they were counted under;
read back with a one-line error for each way the file can be wrong."""

import json
from pathlib import Path
from typing import Any

from layerbench.errors import ConfigError


def url_values_document(
    header: dict[str, Any],
    conditions: dict[str, Any],
    field: str,
    values: dict[str, list[float]],
) -> dict[str, Any]:
    """``header`` (its version, kind, application), the conditions, each URL's values."""
    return {
        **header,
        "conditions": conditions,
        "urls": {url: {field: url_values} for url, url_values in values.items()},
    }


def read_document(path: Path) -> Any:
    """The file's JSON; a ConfigError when it is missing, unreadable or not JSON."""
    try:
        return json.loads(path.read_text())
    except FileNotFoundError:
        raise ConfigError(f"no baseline at {path}: make one with --save") from None
    except OSError as error:
        raise ConfigError(f"cannot read {path}: {error.strerror}") from None
    except ValueError as error:
        raise ConfigError(f"{path} is not JSON: {error}") from None


def url_values(path: Path, document: dict[str, Any], field: str) -> dict[str, list[float]]:
    """Each URL's values under ``field``; a ConfigError when they are not numbers by URL."""
    try:
        return {
            url: [float(value) for value in entry[field]] for url, entry in document["urls"].items()
        }
    except (KeyError, TypeError, ValueError, AttributeError):
        raise ConfigError(f"{path}: its urls are not what a baseline holds") from None
