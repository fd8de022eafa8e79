"""The smoke baseline file: every URL's req/s, one per repeat, and the conditions they were
measured under (:mod:`layerbench.lab.smoke_conditions`).

History of ``version``:
  1  the URLs' req/s, the application, the server and the concurrency
  2  ``conditions``: the server, its settings, the concurrency, the URLs and the machine
A version 1 baseline still loads; what it did not record is unknown, and not compared."""

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from layerbench.errors import ConfigError
from layerbench.lab.baseline_file import read_document, url_values, url_values_document

BASELINE_VERSION = 2
READABLE_VERSIONS = (1, 2)
RATES_FIELD = "requests_per_s"


@dataclass(frozen=True)
class Baseline:
    rates: dict[str, list[float]]
    conditions: dict[str, Any]
    # One line about what is not known of its conditions (an older baseline), or "".
    note: str = ""


def baseline_document(
    app: str, conditions: dict[str, Any], rates: dict[str, list[float]]
) -> dict[str, Any]:
    header = {"version": BASELINE_VERSION, "app": app}
    return url_values_document(header, conditions, RATES_FIELD, rates)


def read_baseline(path: Path) -> Baseline:
    document = read_document(path)
    if not isinstance(document, dict) or document.get("version") not in READABLE_VERSIONS:
        raise ConfigError(
            f"{path} is not a layerbench smoke baseline (version {BASELINE_VERSION} or older)"
        )
    rates = url_values(path, document, RATES_FIELD)
    if document["version"] == 1:
        return _first_version(path, document, rates)
    conditions = document.get("conditions")
    if not isinstance(conditions, dict):
        raise ConfigError(f"{path}: its conditions are not what a baseline holds")
    return Baseline(rates, conditions)


def _first_version(path: Path, document: dict[str, Any], rates: dict[str, list[float]]) -> Baseline:
    """What a version 1 baseline recorded of its conditions."""
    known: dict[str, Any] = {k: document[k] for k in ("server", "concurrency") if k in document}
    return Baseline(
        rates,
        {**known, "urls": list(rates)},
        note=f"{path} is a baseline of an older layerbench: the settings and the machine it was "
        "measured on are unknown, and not compared (--save records them)",
    )
