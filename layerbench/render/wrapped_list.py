"""A list in one cell (``accept4 1.0, read 2.0; idle: select 1.0/s``, or a sentence) broken into
lines that fit a width: between its items (after ``, `` or ``; ``) where it can, so that an item
and its figure stay on one line; at spaces inside an item only when the item alone is longer."""

import re
import textwrap

# Where a list may be broken: after its separators.
_BETWEEN_ITEMS = re.compile(r"(?<=[,;]) ")


def wrapped_list(text: str, width: int) -> list[str]:
    """``text`` as lines of at most ``width`` characters (one line, ``[""]``, when empty)."""
    lines: list[str] = []
    line = ""
    for item in _BETWEEN_ITEMS.split(text):
        if line and len(line) + 1 + len(item) <= width:
            line += " " + item
            continue
        if line:
            lines.append(line)
        pieces = textwrap.wrap(item, width, break_on_hyphens=False) or [""]
        lines += pieces[:-1]
        line = pieces[-1]
    lines.append(line)
    return lines
