"""The smoke baseline file: every URL's req/s, one per repeat, and the conditions they were
measured under (:mod:`layerbench.smoke.smoke_conditions`).

History of ``version``:
  1  the URLs' req/s, the application, the server and the concurrency
  2  ``conditions``: the server, its settings, the concurrency, the URLs and the machine
A version 1 baseline still loads; what it did not record is unknown, and not compared."""

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from layerbench.documents import mapping, number, scalar, sequence, text
from layerbench.errors import ConfigError
from layerbench.lab.baseline_file import MAX_URLS, read_document, url_values, url_values_document

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
    return Baseline(rates, checked_conditions(path, document.get("conditions")))


def checked_conditions(path: Path, value: object) -> dict[str, Any]:
    """The conditions as :func:`~layerbench.smoke.smoke_conditions.smoke_conditions` writes
    them, each field of its type; a ConfigError naming the field otherwise."""
    conditions = mapping(value, f"{path}: conditions")
    unknown = sorted(set(conditions) - set(CONDITION_FIELDS))
    if unknown:
        raise ConfigError(
            f"{path}: conditions has no field {', '.join(unknown)} "
            f"(its fields: {', '.join(CONDITION_FIELDS)})"
        )
    for name, field_value in conditions.items():
        CONDITION_FIELDS[name](field_value, f"{path}: conditions.{name}")
    return conditions


def _settings(value: object, where: str) -> None:
    for section, values in mapping(value, where).items():
        for key, setting in mapping(values, f"{where}.{section}").items():
            scalar(setting, f"{where}.{section}.{key}")


def _urls(value: object, where: str) -> None:
    for index, url in enumerate(sequence(value, where, most=MAX_URLS)):
        text(url, f"{where}[{index}]")


def _machine(value: object, where: str) -> None:
    for key, item in mapping(value, where).items():
        scalar(item, f"{where}.{key}")


CONDITION_FIELDS: dict[str, Callable[[object, str], object]] = {
    "server": text,
    "settings": _settings,
    "concurrency": lambda value, where: number(value, where, low=1, integer=True),
    "urls": _urls,
    "machine": _machine,
}


def _first_version(path: Path, document: dict[str, Any], rates: dict[str, list[float]]) -> Baseline:
    """What a version 1 baseline recorded of its conditions."""
    known: dict[str, Any] = {k: document[k] for k in ("server", "concurrency") if k in document}
    checked_conditions(path, known)
    return Baseline(
        rates,
        {**known, "urls": list(rates)},
        note=f"{path} is a baseline of an older layerbench: the settings and the machine it was "
        "measured on are unknown, and not compared (--save records them)",
    )
