"""A smoke test's baseline file, whatever it counts (req/s: :mod:`layerbench.smoke.smoke_baseline`;
instructions: :mod:`layerbench.cost.instructions_baseline`): one JSON document holding every
URL's values, one per repeat, under one field, and the conditions they were counted under;
read back with a one-line error for each way the file can be wrong, naming the field."""

from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any

from layerbench.documents import MIB, read_json
from layerbench.results.trials import MAX_REPEATS
from layerbench.typed_documents import Bounds, JsonObject

MAX_BASELINE_BYTES = 16 * MIB
MAX_URLS = 1000


def url_values_document(
    header: JsonObject,
    conditions: JsonObject,
    field: str,
    values: dict[str, list[float]],
) -> JsonObject:
    """``header`` (its version, kind, application), the conditions, each URL's values."""
    return {
        **header,
        "conditions": conditions,
        "urls": {url: {field: url_values} for url, url_values in values.items()},
    }


def read_document(path: Path) -> Any:  # boundary: JSON just parsed, typed by its reader
    """The file's JSON; a ConfigError when it is missing, not a regular file, too large,
    unreadable or not JSON (NaN, Infinity and integers of unbounded size are not); its reader
    decodes it into its schema (:class:`Rates` or :class:`Instructions` per URL)."""
    return read_json(
        path, str(path), MAX_BASELINE_BYTES, missing=f"no baseline at {path}: make one with --save"
    )


Positive = Annotated[float, Bounds(above=0)]
# Each URL's values, one per repeat: a rate or a count of 0 would judge nothing.
Values = Annotated[tuple[Positive, ...], Bounds(least=1, most=MAX_REPEATS)]


@dataclass(frozen=True)
class Rates:
    """A URL's entry in a req/s baseline."""

    requests_per_s: Values


@dataclass(frozen=True)
class Instructions:
    """A URL's entry in an instructions baseline."""

    instructions_per_request: Values


# Every URL's entry, 1 to MAX_URLS of them.
RateUrls = Annotated[dict[str, Rates], Bounds(least=1, most=MAX_URLS)]
InstructionUrls = Annotated[dict[str, Instructions], Bounds(least=1, most=MAX_URLS)]
