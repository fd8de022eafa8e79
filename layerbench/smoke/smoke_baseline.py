"""The smoke baseline file: every URL's req/s, one per repeat, and the conditions they were
measured under (:mod:`layerbench.smoke.smoke_conditions`).

History of ``version``:
  1  the URLs' req/s, the application, the server and the concurrency
  2  ``conditions``: the server, its settings, the concurrency, the URLs and the machine
A version 1 baseline still loads; what it did not record is unknown, and not compared.

A baseline saved with ``--profile`` holds ``profiles`` too (each URL's sampled profile,
:mod:`layerbench.smoke.smoke_profiles`), in version 2 without a new number: a reader that does
not know the key passes it by, and one without it has no profile to diff against."""

from dataclasses import dataclass
from pathlib import Path
from typing import Annotated

from layerbench.cost.instructions_baseline import KIND as INSTRUCTIONS_KIND
from layerbench.errors import ConfigError
from layerbench.lab.baseline_file import RateUrls, read_document, url_values_document
from layerbench.smoke.smoke_conditions import SmokeConditions
from layerbench.typed_documents import Bounds, JsonObject, decode, encode

BASELINE_VERSION = 2
READABLE_VERSIONS = (1, 2)
RATES_FIELD = "requests_per_s"


@dataclass(frozen=True)
class Baseline:
    rates: dict[str, list[float]]
    conditions: SmokeConditions
    # One line about what is not known of its conditions (an older baseline), or "".
    note: str = ""


def baseline_document(
    app: str, conditions: SmokeConditions, rates: dict[str, list[float]]
) -> JsonObject:
    header: JsonObject = {"version": BASELINE_VERSION, "app": app}
    return url_values_document(header, encode(conditions), RATES_FIELD, rates)


@dataclass(frozen=True)
class SmokeBaselineFile:
    """Version 2: the URLs' req/s and their conditions."""

    version: int
    urls: RateUrls
    conditions: SmokeConditions
    app: str | None = None


@dataclass(frozen=True)
class FirstSmokeBaselineFile:
    """Version 1: the URLs' req/s, the application, the server and the concurrency."""

    version: int
    urls: RateUrls
    app: str | None = None
    server: str | None = None
    concurrency: Annotated[int, Bounds(low=1)] | None = None


def read_baseline(path: Path) -> Baseline:
    document = read_document(path)
    if isinstance(document, dict) and document.get("kind") == INSTRUCTIONS_KIND:
        raise ConfigError(
            f"{path} is a baseline of instructions: compare with it with --measure instructions"
        )
    if not isinstance(document, dict) or document.get("version") not in READABLE_VERSIONS:
        raise ConfigError(
            f"{path} is not a layerbench smoke baseline (version {BASELINE_VERSION} or older)"
        )
    if document["version"] == 1:
        return _first_version(path, decode(FirstSmokeBaselineFile, document, str(path)))
    read = decode(SmokeBaselineFile, document, str(path))
    return Baseline(_rates(read.urls), read.conditions)


def _rates(urls: RateUrls) -> dict[str, list[float]]:
    return {url: list(entry.requests_per_s) for url, entry in urls.items()}


def _first_version(path: Path, read: FirstSmokeBaselineFile) -> Baseline:
    """What a version 1 baseline recorded of its conditions."""
    rates = _rates(read.urls)
    known = SmokeConditions(server=read.server, concurrency=read.concurrency, urls=tuple(rates))
    return Baseline(
        rates,
        known,
        note=f"{path} is a baseline of an older layerbench: the settings and the machine it was "
        "measured on are unknown, and not compared (--save records them)",
    )
