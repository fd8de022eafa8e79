"""The baseline file of ``smoke --measure instructions``: every URL's instructions per request,
one per repeat, and what they were counted under (:mod:`layerbench.cost.cost_conditions`):
the interpreter, the architecture, the hash seed, every package's version.

A count from another interpreter or architecture is not comparable with one from here: such a
baseline is refused (exit 2), naming the difference, unless compared anyway. Other packages'
versions are said, not refused: a changed dependency is one of the things the gate is for.

History of ``version``:
  1  the URLs' instructions per request, the conditions, the requests and warm-up per URL"""

from dataclasses import dataclass, field
from pathlib import Path

from layerbench.cost.cost_conditions import COMPARABLE
from layerbench.errors import ConfigError
from layerbench.lab.baseline_file import InstructionUrls, read_document, url_values_document
from layerbench.typed_documents import OMIT_NONE, JsonObject, decode, encode

KIND = "smoke-instructions"
VERSION = 1
INSTRUCTIONS_FIELD = "instructions_per_request"


def baseline_document(
    app: str, conditions: "CountedUnder", instructions: dict[str, list[float]]
) -> JsonObject:
    header: JsonObject = {"version": VERSION, "kind": KIND, "app": app}
    return url_values_document(header, encode(conditions), INSTRUCTIONS_FIELD, instructions)


def is_instructions_baseline(path: Path) -> bool:
    try:
        document = read_document(path)
    except ConfigError:
        return False
    return isinstance(document, dict) and document.get("kind") == KIND


@dataclass(frozen=True)
class CountedUnder:
    """What the counts were made under (:func:`~layerbench.cost.cost_conditions.
    cost_conditions`): the interpreter, the architecture, the hash seed, every package's
    version; a condition it did not record is left out."""

    layerbench_version: str | None = field(default=None, metadata=OMIT_NONE)
    python: str | None = field(default=None, metadata=OMIT_NONE)
    python_build: str | None = field(default=None, metadata=OMIT_NONE)
    python_executable: str | None = field(default=None, metadata=OMIT_NONE)
    architecture: str | None = field(default=None, metadata=OMIT_NONE)
    hash_seed: int | str | None = field(default=None, metadata=OMIT_NONE)
    valgrind: str | None = field(default=None, metadata=OMIT_NONE)
    packages: dict[str, str] | None = field(default=None, metadata=OMIT_NONE)
    # The server the counts were made under (smoke --served); None: in-process.
    served_by: str | None = field(default=None, metadata=OMIT_NONE)


def counted_under(conditions: JsonObject) -> CountedUnder:
    """``conditions`` (:func:`~layerbench.cost.cost_conditions.cost_conditions`'s) typed."""
    return decode(CountedUnder, conditions, "the conditions of the count")


@dataclass(frozen=True)
class InstructionsBaseline:
    instructions: dict[str, list[float]]
    conditions: CountedUnder


@dataclass(frozen=True)
class InstructionsBaselineFile:
    """Version 1: the URLs' instructions per request and what they were counted under."""

    version: int
    kind: str
    urls: InstructionUrls
    conditions: CountedUnder
    app: str | None = None


def read_instructions_baseline(path: Path) -> InstructionsBaseline:
    document = read_document(path)
    if not isinstance(document, dict) or document.get("kind") != KIND:
        raise ConfigError(
            f"{path} is not a baseline of instructions (smoke --measure instructions --save); "
            "a req/s baseline is compared without --measure instructions"
        )
    if document.get("version") != VERSION:
        raise ConfigError(f"{path}: a baseline of version {document.get('version')!r}, not 1")
    read = decode(InstructionsBaselineFile, document, str(path))
    instructions = {url: list(entry.instructions_per_request) for url, entry in read.urls.items()}
    return InstructionsBaseline(instructions, read.conditions)


def incomparable(baseline: CountedUnder, now: CountedUnder) -> list[str]:
    """How the interpreter or the architecture differ (empty: the counts are comparable)."""
    return [
        f"{key} {getattr(baseline, key)} in the baseline, {getattr(now, key)} now"
        for key in COMPARABLE
        if getattr(baseline, key) != getattr(now, key)
    ]


def package_changes(baseline: CountedUnder, now: CountedUnder) -> list[str]:
    """Each package whose version differs, or that is in one only."""
    before = baseline.packages or {}
    after = now.packages or {}
    return [
        f"{name} {before.get(name, 'absent')} -> {after.get(name, 'absent')}"
        for name in sorted(set(before) | set(after), key=str.lower)
        if before.get(name) != after.get(name)
    ]
