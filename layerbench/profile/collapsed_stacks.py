"""Stack samples in the collapsed format that flame-graph tools share: one line per distinct
stack, its frames from the root to the leaf joined by ``;``, then a space and how many samples
had it (``main (app.py:3);handle (app.py:9) 42``).

A frame reads ``NAME (FILE:LINE)`` for Python code, ``NAME (OBJECT)`` or ``0xADDRESS (OBJECT)``
for native code without line information. py-spy, sampling several processes, puts a
``process PID:"COMMAND"`` frame at the root of each stack: :func:`without_processes` drops
those, so that the workers of one server add up to one profile.

In a results document the samples are stored as a table of distinct frames and, per stack, the
frames' indices then its count (:func:`to_document`): a frame that thousands of stacks share is
written once.
"""

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, TypedDict

# Root first, leaf last.
Stack = tuple[str, ...]
Stacks = dict[Stack, int]

PROCESS_PREFIX = "process "


@dataclass(frozen=True)
class Frame:
    name: str
    # A source file (Python's, or a native one with debug information), a shared object, or
    # a pseudo-file such as ``<frozen runpy>``; "" when the frame names none.
    file: str
    line: int | None


def parse_frame(text: str) -> Frame:
    """``NAME (FILE:LINE)``, ``NAME (FILE)`` or a bare ``NAME``."""
    if not text.endswith(")") or " (" not in text:
        return Frame(text, "", None)
    name, _, rest = text[:-1].rpartition(" (")
    place, colon, line = rest.rpartition(":")
    if colon and line.isdigit():
        return Frame(name, place, int(line))
    return Frame(name, rest, None)


def parse_collapsed(text: str) -> Stacks:
    """The stacks of a collapsed-stack text; a line that is not one (blank, or without a count)
    is skipped. The same stack on several lines adds up."""
    stacks: Stacks = {}
    for line in text.splitlines():
        frames, _, count = line.rstrip().rpartition(" ")
        if not frames or not count.isdigit():
            continue
        stack = tuple(frames.split(";"))
        stacks[stack] = stacks.get(stack, 0) + int(count)
    return stacks


def without_processes(stacks: Mapping[Stack, int]) -> Stacks:
    """The stacks with py-spy's ``process …`` root frames dropped, and merged."""
    merged: Stacks = {}
    for stack, count in stacks.items():
        start = 0
        while start < len(stack) and stack[start].startswith(PROCESS_PREFIX):
            start += 1
        kept = stack[start:]
        if kept:
            merged[kept] = merged.get(kept, 0) + count
    return merged


def merged(many: Iterable[Mapping[Stack, int]]) -> Stacks:
    """Several profiles' samples added up (the trials of one rung)."""
    total: Stacks = {}
    for stacks in many:
        for stack, count in stacks.items():
            total[stack] = total.get(stack, 0) + count
    return total


def sample_count(stacks: Mapping[Stack, int]) -> int:
    return sum(stacks.values())


def to_collapsed(stacks: Mapping[Stack, int]) -> str:
    """The collapsed-stack text, most samples first (ties in the stacks' order)."""
    ordered = sorted(stacks.items(), key=lambda item: (-item[1], item[0]))
    return "".join(f"{';'.join(stack)} {count}\n" for stack, count in ordered)


class StackTable(TypedDict):
    """A profile's samples as a results document stores them."""

    frames: list[str]
    stacks: list[list[int]]


def to_document(stacks: Mapping[Stack, int]) -> StackTable:
    """``{"frames": [FRAME, …], "stacks": [[INDEX, …, COUNT], …]}``, frames in the order first
    met, stacks most samples first."""
    index: dict[str, int] = {}
    rows: list[list[int]] = []
    for stack, count in sorted(stacks.items(), key=lambda item: (-item[1], item[0])):
        rows.append([index.setdefault(frame, len(index)) for frame in stack] + [count])
    return {"frames": list(index), "stacks": rows}


def from_document(document: Mapping[str, Any]) -> Stacks:
    """The stacks of :func:`to_document`'s table."""
    frames: list[str] = list(document["frames"])
    stacks: Stacks = {}
    for row in document["stacks"]:
        stack = tuple(frames[i] for i in row[:-1])
        stacks[stack] = stacks.get(stack, 0) + int(row[-1])
    return stacks
