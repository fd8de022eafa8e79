"""Colour for the terminal tables: only when the output is a terminal, and never when
``NO_COLOR`` is set (https://no-color.org) or ``TERM`` is ``dumb``. A table may go to stdout or
to stderr (``--json -``), so both must be terminals. Colour codes take no columns: tables are
aligned on their plain text and painted afterwards."""

import os
import sys
from collections.abc import Mapping
from typing import TextIO

BOLD = "1"
RED = "31"
YELLOW = "33"
DIM = "2"


def colour_wanted(
    streams: tuple[TextIO, ...] | None = None, environ: Mapping[str, str] | None = None
) -> bool:
    environ = os.environ if environ is None else environ
    if environ.get("NO_COLOR") or environ.get("TERM") == "dumb":
        return False
    streams = (sys.stdout, sys.stderr) if streams is None else streams
    return all(_is_terminal(stream) for stream in streams)


def _is_terminal(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):  # closed, or not a file
        return False


def paint(text: str, code: str) -> str:
    """``text`` in the SGR ``code`` (BOLD, RED…), reset after it; empty text stays empty."""
    return f"\033[{code}m{text}\033[0m" if code and text else text


def highlight(cell: str) -> str:
    """What a table's cell says, in colour: a failure red, a skip dim, a noisy or client-bound
    mark yellow, failed requests (``E n``) red."""
    text = cell.strip()
    if text in ("error", "failed") or text.startswith("E "):
        return RED
    if text in ("skipped", "not applicable"):
        return DIM
    if text.endswith("!") or text == "*":
        return YELLOW
    return ""
