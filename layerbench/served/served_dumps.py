"""Reading the dumps callgrind writes when vgdb asks a running process for one
(``callgrind.out.PID.N``): the process, the window the dump closed (its ``desc: Trigger: dump
LABEL`` line) and what it counted (``events:`` and ``totals:``)."""

import re
from dataclasses import dataclass
from pathlib import Path

from layerbench.errors import LayerbenchError

_NAME = re.compile(r"^callgrind\.out\.(\d+)\.(\d+)$")
_TRIGGER = re.compile(r"^desc: Trigger: dump (.*)$", re.MULTILINE)
_TOTALS = re.compile(r"^totals: (\d+)", re.MULTILINE)
_EVENTS = re.compile(r"^events: (.*)$", re.MULTILINE)


@dataclass(frozen=True)
class WindowDump:
    pid: int
    label: str
    # Every event callgrind counted, by its name (Ir alone without the cache simulation).
    events: dict[str, int]

    @property
    def instructions(self) -> int:
        return self.events["Ir"]


def read_dump(path: Path) -> WindowDump | None:
    """The dump at ``path``; None when it was not asked for by vgdb (the final dump a process
    writes at its exit)."""
    name = _NAME.match(path.name)
    if name is None:
        return None
    text = path.read_text(errors="replace")
    trigger = _TRIGGER.search(text)
    if trigger is None:
        return None
    events = _EVENTS.search(text)
    totals = _TOTALS.search(text)
    if events is None or totals is None:
        raise LayerbenchError(f"callgrind's dump {path} has no events or totals line")
    names = events.group(1).split()
    values = [int(value) for value in text[totals.start() :].split("\n", 1)[0].split()[1:]]
    counted = dict(zip(names, values + [0] * (len(names) - len(values)), strict=True))
    return WindowDump(int(name.group(1)), trigger.group(1).strip(), counted)


def window_dumps(directory: Path, label: str) -> dict[int, WindowDump]:
    """The dumps of the window ``label``, by process."""
    found: dict[int, WindowDump] = {}
    for path in directory.glob("callgrind.out.*.*"):
        dump = read_dump(path)
        if dump is not None and dump.label == label:
            if dump.pid in found:
                raise LayerbenchError(f"two dumps of window {label} from process {dump.pid}")
            found[dump.pid] = dump
    return found
