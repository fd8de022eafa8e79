"""The baseline file of ``smoke --measure instructions``: every URL's instructions per request,
one per repeat, and what they were counted under (:mod:`layerbench.cost.cost_conditions`):
the interpreter, the architecture, the hash seed, every package's version.

A count from another interpreter or architecture is not comparable with one from here: such a
baseline is refused (exit 2), naming the difference, unless compared anyway. Other packages'
versions are said, not refused: a changed dependency is one of the things the gate is for.

History of ``version``:
  1  the URLs' instructions per request, the conditions, the requests and warm-up per URL"""

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from layerbench.cost.cost_conditions import COMPARABLE
from layerbench.documents import mapping, scalar, text
from layerbench.errors import ConfigError
from layerbench.lab.baseline_file import read_document, url_values, url_values_document

KIND = "smoke-instructions"
VERSION = 1
INSTRUCTIONS_FIELD = "instructions_per_request"


@dataclass(frozen=True)
class InstructionsBaseline:
    instructions: dict[str, list[float]]
    conditions: dict[str, Any]


def baseline_document(
    app: str, conditions: dict[str, Any], instructions: dict[str, list[float]]
) -> dict[str, Any]:
    header = {"version": VERSION, "kind": KIND, "app": app}
    return url_values_document(header, conditions, INSTRUCTIONS_FIELD, instructions)


def is_instructions_baseline(path: Path) -> bool:
    try:
        document = read_document(path)
    except ConfigError:
        return False
    return isinstance(document, dict) and document.get("kind") == KIND


def read_instructions_baseline(path: Path) -> InstructionsBaseline:
    document = read_document(path)
    if not isinstance(document, dict) or document.get("kind") != KIND:
        raise ConfigError(
            f"{path} is not a baseline of instructions (smoke --measure instructions --save); "
            "a req/s baseline is compared without --measure instructions"
        )
    if document.get("version") != VERSION:
        raise ConfigError(f"{path}: a baseline of version {document.get('version')!r}, not 1")
    instructions = url_values(path, document, INSTRUCTIONS_FIELD)
    return InstructionsBaseline(instructions, _conditions(path, document.get("conditions")))


def _conditions(path: Path, value: object) -> dict[str, Any]:
    """As :func:`~layerbench.cost.cost_conditions.cost_conditions` writes them: each a string,
    a number or null, and ``packages`` each package's version."""
    conditions = mapping(value, f"{path}: conditions")
    for name, item in conditions.items():
        if name == "packages":
            for package, version in mapping(item, f"{path}: conditions.packages").items():
                text(version, f"{path}: conditions.packages.{package}")
        else:
            scalar(item, f"{path}: conditions.{name}")
    return conditions


def incomparable(baseline: dict[str, Any], now: dict[str, Any]) -> list[str]:
    """How the interpreter or the architecture differ (empty: the counts are comparable)."""
    return [
        f"{key} {baseline.get(key)} in the baseline, {now.get(key)} now"
        for key in COMPARABLE
        if baseline.get(key) != now.get(key)
    ]


def package_changes(baseline: dict[str, Any], now: dict[str, Any]) -> list[str]:
    """Each package whose version differs, or that is in one only."""
    before: dict[str, str] = baseline.get("packages") or {}
    after: dict[str, str] = now.get("packages") or {}
    return [
        f"{name} {before.get(name, 'absent')} -> {after.get(name, 'absent')}"
        for name in sorted(set(before) | set(after), key=str.lower)
        if before.get(name) != after.get(name)
    ]
