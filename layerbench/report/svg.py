"""Charts as inline SVG, drawn here so that a report needs no script and nothing from the
network: horizontal bars (with an interval whisker each), stacked bars, and lines on linear or
logarithmic axes. Every text is escaped."""

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from html import escape

WIDTH = 760
BAR_HEIGHT = 20
BAR_GAP = 8
LABEL_WIDTH = 150
VALUE_WIDTH = 90
PALETTE = ("#3b6ea8", "#d1793b", "#4b9a5b", "#b84a62", "#7d62a8", "#8c7a4d", "#4aa3a8", "#888")


@dataclass(frozen=True)
class Bar:
    label: str
    value: float
    low: float | None = None
    high: float | None = None
    note: str = ""


def bar_chart(title: str, bars: Sequence[Bar], unit: str) -> str:
    """One horizontal bar per item, scaled to the largest value or interval end."""
    top = max([bar.high or bar.value for bar in bars] + [1e-9])
    plot = WIDTH - LABEL_WIDTH - VALUE_WIDTH
    height = len(bars) * (BAR_HEIGHT + BAR_GAP) + 40
    parts = [_open(title, height)]
    for i, bar in enumerate(bars):
        y = 30 + i * (BAR_HEIGHT + BAR_GAP)
        width = max(1.0, plot * bar.value / top)
        parts.append(_text(LABEL_WIDTH - 6, y + 14, bar.label, anchor="end"))
        parts.append(
            f'<rect class="bar" x="{LABEL_WIDTH}" y="{y}" width="{width:.1f}" '
            f'height="{BAR_HEIGHT}" fill="{PALETTE[0]}"><title>{escape(bar.label)}: '
            f"{bar.value:,.0f} {escape(unit)}</title></rect>"
        )
        if bar.low is not None and bar.high is not None:
            x1, x2 = LABEL_WIDTH + plot * bar.low / top, LABEL_WIDTH + plot * bar.high / top
            mid = y + BAR_HEIGHT / 2
            parts.append(
                f'<path class="interval" d="M{x1:.1f},{mid - 5}v10M{x1:.1f},{mid}H{x2:.1f}'
                f'M{x2:.1f},{mid - 5}v10" stroke="#222" fill="none"/>'
            )
        label = f"{bar.value:,.0f} {unit}" + (f" {bar.note}" if bar.note else "")
        end = max(width, plot * (bar.high or 0) / top)
        parts.append(_text(LABEL_WIDTH + end + 6, y + 14, label))
    parts.append("</svg>")
    return "".join(parts)


def stacked_bar_chart(
    title: str, labels: Sequence[str], stacks: Mapping[str, Sequence[float]], unit: str
) -> str:
    """One horizontal bar per label, made of one segment per stack (a role, say)."""
    totals = [sum(values[i] for values in stacks.values()) for i in range(len(labels))]
    top = max([*totals, 1e-9])
    plot = WIDTH - LABEL_WIDTH - VALUE_WIDTH
    height = len(labels) * (BAR_HEIGHT + BAR_GAP) + 60
    parts = [_open(title, height)]
    for i, label in enumerate(labels):
        y = 30 + i * (BAR_HEIGHT + BAR_GAP)
        parts.append(_text(LABEL_WIDTH - 6, y + 14, label, anchor="end"))
        x = float(LABEL_WIDTH)
        for color, (name, values) in zip(PALETTE, stacks.items(), strict=False):
            width = plot * values[i] / top
            if width > 0:
                parts.append(
                    f'<rect class="bar" x="{x:.1f}" y="{y}" width="{width:.1f}" '
                    f'height="{BAR_HEIGHT}" fill="{color}"><title>{escape(label)}, '
                    f"{escape(name)}: {values[i]:.4g} {escape(unit)}</title></rect>"
                )
            x += width
        parts.append(_text(x + 6, y + 14, f"{totals[i]:.3g} {unit}"))
    parts.append(_legend(list(stacks), height - 18))
    parts.append("</svg>")
    return "".join(parts)


@dataclass(frozen=True)
class Series:
    name: str
    points: tuple[tuple[float, float], ...]


def line_chart(
    title: str,
    series: Sequence[Series],
    *,
    x_label: str,
    y_label: str,
    x_ticks: Sequence[tuple[float, str]],
    log_y: bool = False,
) -> str:
    """Lines through each series' points; x in the caller's scale (ticks placed by value),
    y linear or logarithmic (base 10)."""
    height = 340
    left, right, top, bottom = 70, WIDTH - 150, 44, height - 50
    xs = [x for s in series for x, _ in s.points] + [x for x, _ in x_ticks]
    ys = [y for s in series for _, y in s.points if y > 0 or not log_y]
    if not xs or not ys:
        return _open(title, 60) + _text(10, 45, "nothing to draw") + "</svg>"

    def scale_y(value: float) -> float:
        return math.log10(value) if log_y else value

    x_min, x_max = min(xs), max(xs)
    ticks = _y_ticks(min(ys), max(ys), log_y)
    y_min = scale_y(ticks[0]) if log_y else 0.0
    y_max = max(scale_y(ticks[-1]), scale_y(max(ys)))
    if y_max <= y_min:
        y_max = y_min + 1

    def px(x: float) -> float:
        return left + (right - left) * (x - x_min) / ((x_max - x_min) or 1)

    def py(y: float) -> float:
        return bottom - (bottom - top) * (scale_y(y) - y_min) / (y_max - y_min)

    parts = [_open(title, height)]
    parts.append(
        f'<path d="M{left},{top}V{bottom}H{right}" stroke="#444" fill="none" class="axis"/>'
    )
    for x, label in x_ticks:
        parts.append(_text(px(x), bottom + 16, label, anchor="middle"))
    for value in ticks:
        parts.append(_text(left - 6, py(value) + 4, f"{value:g}", anchor="end"))
        parts.append(f'<path d="M{left},{py(value):.1f}H{right}" stroke="#ddd" fill="none"/>')
    parts.append(_text((left + right) / 2, height - 12, x_label, anchor="middle"))
    parts.append(_text(left - 6, top - 10, y_label, anchor="end"))
    for color, line in zip(PALETTE * 4, series, strict=False):
        points = [(x, y) for x, y in line.points if y > 0 or not log_y]
        if not points:
            continue
        coordinates = " ".join(f"{px(x):.1f},{py(y):.1f}" for x, y in points)
        parts.append(
            f'<polyline class="series" points="{coordinates}" stroke="{color}" '
            f'stroke-width="2" fill="none"><title>{escape(line.name)}</title></polyline>'
        )
        for x, y in points:
            parts.append(f'<circle cx="{px(x):.1f}" cy="{py(y):.1f}" r="2.5" fill="{color}"/>')
    parts.append(_side_legend([line.name for line in series], right + 10, top))
    parts.append("</svg>")
    return "".join(parts)


def _y_ticks(low: float, high: float, log: bool) -> list[float]:
    if log:
        first, last = math.floor(math.log10(low)), math.ceil(math.log10(high))
        steps = (1, 2, 5) if last - first <= 2 else (1,)
        values = [step * 10.0**power for power in range(first, last + 1) for step in steps]
        below = [v for v in values if v <= low]
        above = [v for v in values if v >= high]
        start, end = (below[-1] if below else values[0]), (above[0] if above else values[-1])
        return [v for v in values if start <= v <= end]
    step = 10 ** math.floor(math.log10(high or 1))
    if high / step < 3:
        step /= 2
    return [step * i for i in range(int(high / step) + 1)]


def _open(title: str, height: int) -> str:
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" class="chart" width="{WIDTH}" '
        f'height="{height}" viewBox="0 0 {WIDTH} {height}" role="img" '
        f'aria-label="{escape(title)}">' + _text(4, 16, title, css="title")
    )


def _text(x: float, y: float, text: str, anchor: str = "start", css: str = "") -> str:
    klass = f' class="{css}"' if css else ""
    return f'<text x="{x:.1f}" y="{y:.1f}" text-anchor="{anchor}"{klass}>{escape(text)}</text>'


def _legend(names: list[str], y: float) -> str:
    parts = []
    x = float(LABEL_WIDTH)
    for color, name in zip(PALETTE, names, strict=False):
        parts.append(f'<rect x="{x:.1f}" y="{y - 10}" width="12" height="12" fill="{color}"/>')
        parts.append(_text(x + 16, y, name))
        x += 24 + 8 * len(name)
    return "".join(parts)


def _side_legend(names: list[str], x: float, y: float) -> str:
    parts = []
    for i, (color, name) in enumerate(zip(PALETTE * 4, names, strict=False)):
        row = y + 16 * i
        parts.append(f'<rect x="{x:.1f}" y="{row:.1f}" width="12" height="4" fill="{color}"/>')
        parts.append(_text(x + 16, row + 6, name[:18]))
    return "".join(parts)
