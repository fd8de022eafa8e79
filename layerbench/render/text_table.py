"""Plain text tables for the terminal: columns padded to their widest cell, figures
right-aligned; optional headers spanning several columns (``Group``), one column shortened with
``…`` so that the table fits a width, and colour (header bold, failures red) added after the
alignment, so that it never moves a column."""

import textwrap
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass

from layerbench.render.colour import BOLD, colour_wanted, highlight, paint
from layerbench.render.terminal_text import escaped
from layerbench.render.wrapped_list import wrapped_list

TERMINAL_WIDTH = 120
GAP = "  "
# A wrapped last column with less room than this beside its row goes under it, so indented.
LEAST_ROOM = 30
UNDER = "    "


@dataclass(frozen=True)
class Group:
    """A header over the columns ``first`` to ``first + count - 1``, on one or more lines."""

    lines: tuple[str, ...]
    first: int
    count: int


def format_table(
    rows: list[list[str]],
    right_from: int,
    *,
    left: Collection[int] = (),
    groups: Sequence[Group] = (),
    fit: tuple[Collection[int], int] | None = None,
    wrap_last: bool = False,
    colour: bool | None = None,
    style: Callable[[str], str] = highlight,
) -> list[str]:
    """``rows[0]`` is the header. Columns from ``right_from`` on are right-aligned (figures),
    those before it and those in ``left`` left-aligned. ``groups`` are header lines above
    their columns. ``fit`` = (columns, width): those columns are shortened (``…``), the widest
    first, until every line is at most ``width`` long (or they are down to their header's
    width). ``wrap_last``: in a table wider than TERMINAL_WIDTH, the last column (a note, a
    list) is wrapped into what the others leave, or under its row when less than LEAST_ROOM is
    left.
    ``colour``: None decides by the terminal (:func:`colour_wanted`);
    ``style`` gives each data cell its colour. A cell's control characters are shown escaped
    (:func:`~layerbench.render.terminal_text.escaped`): a cell is what it says, never a
    colour, a bell or another row."""
    rows = [[escaped(cell) for cell in row] for row in rows]
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    for group in groups:
        _widen(widths, group)
    if fit is not None:
        _shrink(widths, [len(cell) for cell in rows[0]], *fit)
    wrapping: list[list[str]] = []
    if wrap_last and sum(widths) + len(GAP) * (len(widths) - 1) > TERMINAL_WIDTH:
        rows, wrapping = [row[:-1] for row in rows], [[row[-1]] for row in rows]
        widths = widths[:-1]
    painted = colour_wanted() if colour is None else colour
    depth = max((len(group.lines) for group in groups), default=0)
    lines = [_group_line(groups, widths, k, painted) for k in range(depth)]
    for r, row in enumerate(rows):
        cells = []
        for i, (cell, width) in enumerate(zip(row, widths, strict=True)):
            text = cell if len(cell) <= width else cell[: width - 1] + "…"
            code = (BOLD if r == 0 else style(text)) if painted else ""
            pad = " " * (width - len(text))
            aligned_left = i < right_from or i in left
            cells.append(paint(text, code) + pad if aligned_left else pad + paint(text, code))
        line = GAP.join(cells)
        lines += _with_last(line, wrapping[r][0], widths) if wrapping else [line.rstrip()]
    return lines


def _with_last(line: str, last: str, widths: list[int]) -> list[str]:
    """``line`` and its wrapped last cell: beside it, continued under its own start, or, with
    less than LEAST_ROOM beside it, under the row."""
    if not last:
        return [line.rstrip()]
    start = sum(widths) + len(GAP) * len(widths)
    room = TERMINAL_WIDTH - start
    if room < LEAST_ROOM:
        under = wrapped_list(last, TERMINAL_WIDTH - len(UNDER))
        return [line.rstrip(), *(UNDER + each for each in under)]
    first, *more = wrapped_list(last, room)
    return [line + GAP + first, *(" " * start + each for each in more)]


# A figure and its unit (``-2.5 %``) are kept on one line: textwrap breaks at ASCII spaces only.
_KEPT_SPACE = "\u00a0"


def labelled(label: str, text: str, indent: str | None = None) -> list[str]:
    """``LABEL TEXT`` wrapped to TERMINAL_WIDTH, its following lines under the text's start (or
    ``indent``), a percentage never parted from its figure."""
    under = " " * len(label) if indent is None else indent
    lines = textwrap.wrap(
        text.replace(" %", _KEPT_SPACE + "%"),
        TERMINAL_WIDTH,
        initial_indent=label,
        subsequent_indent=under,
        break_on_hyphens=False,
    )
    return [line.replace(_KEPT_SPACE, " ") for line in lines] or [label.rstrip()]


def fitted_lines(lines: list[str], width: int = TERMINAL_WIDTH) -> list[str]:
    """Lines longer than ``width`` wrapped, each under its own indentation and two more."""
    out = []
    for line in lines:
        if len(line) <= width:
            out.append(line)
            continue
        indent = " " * (len(line) - len(line.lstrip()) + 2)
        out += textwrap.wrap(line, width, subsequent_indent=indent, break_on_hyphens=False)
    return out


def setup_lines(setup: str) -> list[str]:
    """A published experiment's setup, ``  post: …``, within the terminal's width."""
    return labelled("  post: ", setup, "    ")


def _shrink(widths: list[int], least: list[int], columns: Collection[int], limit: int) -> None:
    """One character at a time off the widest of ``columns`` (never below its header, nor 4),
    until the table is ``limit`` wide."""
    floor = {i: max(least[i], 4) for i in columns}
    over = sum(widths) + len(GAP) * (len(widths) - 1) - limit
    while over > 0:
        column = max(columns, key=lambda i: widths[i] - floor[i])
        if widths[column] <= floor[column]:
            return
        widths[column] -= 1
        over -= 1


def _widen(widths: list[int], group: Group) -> None:
    """The group's columns, widened at the last so that its longest line fits over them."""
    span = slice(group.first, group.first + group.count)
    spanned = sum(widths[span]) + len(GAP) * (group.count - 1)
    longest = max(len(line) for line in group.lines)
    if longest > spanned:
        widths[group.first + group.count - 1] += longest - spanned


def _group_line(groups: Sequence[Group], widths: list[int], k: int, painted: bool) -> str:
    """The k-th line of the groups' headers, each from the first of its columns."""
    line, length = "", 0
    for group in groups:
        start = sum(widths[: group.first]) + len(GAP) * group.first
        text = group.lines[k] if k < len(group.lines) else ""
        if text:
            line += " " * (start - length) + paint(text, BOLD if painted else "")
            length = start + len(text)
    return line
