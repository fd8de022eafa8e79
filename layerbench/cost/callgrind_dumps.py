"""Reading callgrind's dumps: one file per ``CALLGRIND_DUMP_STATS_AT(label)``, its instructions
on its ``totals:`` line and its label on ``desc: Trigger: Client Request: LABEL``; and the top
functions of one, by ``callgrind_annotate``."""

import re
import subprocess
from pathlib import Path

from layerbench.errors import LayerbenchError
from layerbench.proc.binaries import find_program

OUT_FILE = "callgrind.out"
_TRIGGER = re.compile(r"^desc: Trigger: Client Request: (.*)$", re.MULTILINE)
_TOTALS = re.compile(r"^totals: (\d+)", re.MULTILINE)
PROFILE_LINES = 40


def dump_files(directory: Path) -> dict[str, Path]:
    """Each dump's label and its file."""
    found = {}
    for path in directory.glob(OUT_FILE + ".*"):
        trigger = _TRIGGER.search(_head(path))
        if trigger:
            found[trigger.group(1)] = path
    return found


def instructions(path: Path) -> int:
    """The instructions a dump counted."""
    totals = _TOTALS.search(path.read_text(errors="replace"))
    if totals is None:
        raise LayerbenchError(f"callgrind's dump {path} has no totals line")
    return int(totals.group(1))


def top_functions(path: Path, lines: int = PROFILE_LINES) -> str:
    """callgrind_annotate's functions of a dump, most instructions first (their own, not their
    callees'), its first ``lines`` lines."""
    annotate = find_program("callgrind_annotate", "valgrind")
    completed = subprocess.run(
        [str(annotate), "--inclusive=no", str(path)],
        capture_output=True,
        text=True,
        check=False,
    )
    if completed.returncode != 0:
        raise LayerbenchError(f"callgrind_annotate failed: {completed.stderr.strip()[-200:]}")
    output = completed.stdout.splitlines()
    start = next((i for i, line in enumerate(output) if "PROGRAM TOTALS" in line), 0)
    return "\n".join(line for line in output[start : start + lines] if not line.startswith("--"))


def _head(path: Path) -> str:
    with path.open(errors="replace") as file:
        return file.read(4096)
