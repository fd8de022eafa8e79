"""What every inline SVG chart shares: the opening with its title, escaped text, an estimate of
a text's width (so that the charts make room instead of clipping), the styles that tell series
apart, and a legend that wraps onto as many rows as its names need."""

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from html import escape

WIDTH = 760
FONT_PX = 12
# The widest a character of the report's sans-serif font runs at FONT_PX, on average over
# digits and lower case (upper case and 'm', 'w' run wider, '.', 'i', 'l' narrower): 0.62 em,
# generous, so that a text estimated to fit does.
CHAR_EM = 0.62
MARGIN = 8
PALETTE = ("#3b6ea8", "#d1793b", "#4b9a5b", "#b84a62", "#7d62a8", "#8c7a4d", "#4aa3a8", "#555")
DASHES = ("", "7 4", "2 3")
MARKERS = ("circle", "square", "triangle", "diamond", "cross")
LEGEND_ROW = 18
SWATCH = 26


def text_width(text: str, size: float = FONT_PX) -> float:
    """A generous estimate of ``text``'s width in pixels at ``size``."""
    return len(text) * size * CHAR_EM


@dataclass(frozen=True)
class SeriesStyle:
    """A series' look: its colour, its dashes and its markers' shape. The i-th style differs
    from every other of the first len(PALETTE) x len(DASHES) in colour or dashes, and from
    its neighbours in shape too."""

    colour: str
    dash: str
    marker: str

    @classmethod
    def of(cls, index: int) -> "SeriesStyle":
        colour = PALETTE[index % len(PALETTE)]
        dash = DASHES[(index // len(PALETTE)) % len(DASHES)]
        return cls(colour, dash, MARKERS[index % len(MARKERS)])


def open_svg(title: str, width: float, height: float) -> str:
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" class="chart" width="{width:.0f}" '
        f'height="{height:.0f}" viewBox="0 0 {width:.0f} {height:.0f}" role="img" '
        f'aria-label="{escape(title)}">' + text(4, 16, title, css="title")
    )


def title_width(title: str) -> float:
    """The width a chart needs for its bold title."""
    return 4 + text_width(title) * 1.1 + MARGIN


def text(x: float, y: float, content: str, anchor: str = "start", css: str = "") -> str:
    klass = f' class="{css}"' if css else ""
    return f'<text x="{x:.1f}" y="{y:.1f}" text-anchor="{anchor}"{klass}>{escape(content)}</text>'


def marker(shape: str, x: float, y: float, colour: str, size: float = 3.5) -> str:
    """A point of a series, drawn in its shape."""
    s = size
    paths = {
        "circle": f"M{x - s:.1f},{y:.1f}a{s},{s} 0 1,0 {2 * s},0a{s},{s} 0 1,0 {-2 * s},0",
        "square": f"M{x - s:.1f},{y - s:.1f}h{2 * s}v{2 * s}h{-2 * s}z",
        "triangle": f"M{x:.1f},{y - s - 1:.1f}l{s + 1},{2 * s + 1}h{-2 * s - 2}z",
        "diamond": f"M{x:.1f},{y - s - 1:.1f}l{s + 1},{s + 1}l{-s - 1},{s + 1}l{-s - 1},{-s - 1}z",
        "cross": f"M{x - s:.1f},{y - s:.1f}l{2 * s},{2 * s}m0,{-2 * s}l{-2 * s},{2 * s}",
    }
    fill = "none" if shape == "cross" else colour
    return (
        f'<path class="marker" data-shape="{shape}" d="{paths[shape]}" fill="{fill}" '
        f'stroke="{colour}" stroke-width="1.5"/>'
    )


def line_swatch(style: SeriesStyle, x: float, y: float) -> str:
    """A short stretch of a series' line with one of its markers, for a legend."""
    dash = f' stroke-dasharray="{style.dash}"' if style.dash else ""
    return (
        f'<path d="M{x:.1f},{y:.1f}h{SWATCH - 4}" stroke="{style.colour}" stroke-width="2"'
        f' fill="none"{dash}/>' + marker(style.marker, x + (SWATCH - 4) / 2, y, style.colour)
    )


def box_swatch(colour: str, x: float, y: float) -> str:
    return f'<rect x="{x:.1f}" y="{y - 6:.1f}" width="12" height="12" fill="{colour}"/>'


def legend_rows(names: Sequence[str], left: float, right: float) -> list[list[tuple[float, int]]]:
    """The names laid out in rows between ``left`` and ``right``: per row, each entry's x and
    its index. A name is never cut: one too long for a row gets a row of its own (the chart
    is made wide enough for it, see :func:`legend_width`)."""
    rows: list[list[tuple[float, int]]] = [[]]
    x = left
    for i, name in enumerate(names):
        entry = SWATCH + 4 + text_width(name) + 14
        if rows[-1] and x + entry > right:
            rows.append([])
            x = left
        rows[-1].append((x, i))
        x += entry
    return rows if rows[0] else []


def legend_width(names: Sequence[str], left: float) -> float:
    """The chart width that fits the legend's longest entry on a row."""
    longest = max((text_width(name) for name in names), default=0.0)
    return left + SWATCH + 4 + longest + MARGIN


def legend(
    names: Sequence[str],
    swatch: Callable[[int, float, float], str],
    rows: list[list[tuple[float, int]]],
    y: float,
) -> str:
    """Each name after its swatch (``swatch(index, x, y)``), row after row from ``y``."""
    parts = ['<g class="legend">']
    for r, row in enumerate(rows):
        for x, i in row:
            parts.append(swatch(i, x, y + r * LEGEND_ROW))
            parts.append(text(x + SWATCH + 4, y + r * LEGEND_ROW + 4, names[i]))
    parts.append("</g>")
    return "".join(parts)
