"""Line charts as inline SVG: lines through each series' points, x in the caller's scale
(ticks placed by value), y linear or logarithmic (base 10). Each series has a style of its own
(colour, dashes, marker shape: twelve rungs stay apart with eight colours) and its full name in
a legend below the plot, wrapped onto as many rows as it needs."""

import math
from collections.abc import Sequence
from dataclasses import dataclass
from html import escape

from layerbench.render.svg import (
    LEGEND_ROW,
    MARGIN,
    WIDTH,
    SeriesStyle,
    legend,
    legend_rows,
    legend_width,
    line_swatch,
    marker,
    open_svg,
    text,
    text_width,
    title_width,
)

TOP = 44
PLOT_HEIGHT = 250


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
    """Lines through each series' points, and the legend naming them."""
    xs = [x for s in series for x, _ in s.points] + [x for x, _ in x_ticks]
    ys = [y for s in series for _, y in s.points if y > 0 or not log_y]
    names = [line.name for line in series]
    width = max(WIDTH, title_width(title), legend_width(names, MARGIN))
    if not xs or not ys:
        return open_svg(title, width, 60) + text(10, 45, "nothing to draw") + "</svg>"

    def scale_y(value: float) -> float:
        return math.log10(value) if log_y else value

    ticks = y_ticks(min(ys), max(ys), log_y)
    tick_texts = [f"{value:g}" for value in ticks]
    left = max([text_width(t) for t in [*tick_texts, y_label]] + [30.0]) + 2 * MARGIN
    last_tick = max(x_ticks, key=lambda tick: tick[0], default=(0.0, ""))[1]
    right = width - max(2 * MARGIN, text_width(last_tick) / 2 + MARGIN)
    bottom = TOP + PLOT_HEIGHT
    x_min, x_max = min(xs), max(xs)
    y_min = scale_y(ticks[0]) if log_y else 0.0
    y_max = max(scale_y(ticks[-1]), scale_y(max(ys)))
    if y_max <= y_min:
        y_max = y_min + 1

    def px(x: float) -> float:
        return left + (right - left) * (x - x_min) / ((x_max - x_min) or 1)

    def py(y: float) -> float:
        return bottom - (bottom - TOP) * (scale_y(y) - y_min) / (y_max - y_min)

    rows = legend_rows(names, MARGIN, width - MARGIN)
    legend_y = bottom + 58
    height = legend_y + len(rows) * LEGEND_ROW + 4
    parts = [open_svg(title, width, height)]
    parts.append(
        f'<path d="M{left:.1f},{TOP}V{bottom}H{right:.1f}" stroke="#444" fill="none" class="axis"/>'
    )
    for x, label in x_ticks:
        parts.append(text(px(x), bottom + 16, label, anchor="middle"))
    for value, label in zip(ticks, tick_texts, strict=True):
        parts.append(text(left - 6, py(value) + 4, label, anchor="end"))
        parts.append(
            f'<path d="M{left:.1f},{py(value):.1f}H{right:.1f}" stroke="#ddd" fill="none"/>'
        )
    parts.append(text((left + right) / 2, bottom + 36, x_label, anchor="middle"))
    parts.append(text(left - 6, TOP - 10, y_label, anchor="end"))
    styles = [SeriesStyle.of(i) for i in range(len(series))]
    for style, line in zip(styles, series, strict=True):
        points = [(px(x), py(y)) for x, y in line.points if y > 0 or not log_y]
        if points:
            parts.append(_line(line.name, points, style))
    parts.append(legend(names, lambda i, x, y: line_swatch(styles[i], x, y), rows, legend_y))
    parts.append("</svg>")
    return "".join(parts)


def _line(name: str, points: list[tuple[float, float]], style: SeriesStyle) -> str:
    coordinates = " ".join(f"{x:.1f},{y:.1f}" for x, y in points)
    dash = f' stroke-dasharray="{style.dash}"' if style.dash else ""
    return (
        f'<g class="line"><title>{escape(name)}</title>'
        f'<polyline class="series" points="{coordinates}" stroke="{style.colour}" '
        f'stroke-width="2" fill="none"{dash}/>'
        + "".join(marker(style.marker, x, y, style.colour) for x, y in points)
        + "</g>"
    )


def y_ticks(low: float, high: float, log: bool) -> list[float]:
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
