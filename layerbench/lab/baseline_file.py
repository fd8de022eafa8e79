"""A smoke test's baseline file, whatever it counts (req/s: :mod:`layerbench.smoke.smoke_baseline`;
instructions: :mod:`layerbench.cost.instructions_baseline`): one JSON document holding every
URL's values, one per repeat, under one field, and the conditions they were counted under;
read back with a one-line error for each way the file can be wrong."""

from pathlib import Path
from typing import Any

from layerbench.documents import MIB, mapping, number, read_json, sequence
from layerbench.errors import ConfigError
from layerbench.results.trials import MAX_REPEATS

MAX_BASELINE_BYTES = 16 * MIB
MAX_URLS = 1000


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
    """The file's JSON; a ConfigError when it is missing, not a regular file, too large,
    unreadable or not JSON (NaN, Infinity and integers of unbounded size are not)."""
    return read_json(
        path, str(path), MAX_BASELINE_BYTES, missing=f"no baseline at {path}: make one with --save"
    )


def url_values(path: Path, document: dict[str, Any], field: str) -> dict[str, list[float]]:
    """Each URL's values under ``field``, checked: 1 to MAX_URLS URLs, each 1 to MAX_REPEATS
    values, each a finite number above 0 (a rate or a count of 0 would judge nothing); a
    ConfigError naming the field otherwise."""
    urls = mapping(document.get("urls"), f"{path}: urls")
    if not 1 <= len(urls) <= MAX_URLS:
        raise ConfigError(f"{path}: urls holds 1 to {MAX_URLS} URLs, not {len(urls):,}")
    values = {}
    for url, entry in urls.items():
        where = f"{path}: urls.{url}.{field}"
        given = sequence(mapping(entry, f"{path}: urls.{url}").get(field), where, least=1,
                         most=MAX_REPEATS)  # fmt: skip
        values[url] = [
            float(number(value, f"{where}[{index}]", above=0)) for index, value in enumerate(given)
        ]
    return values
