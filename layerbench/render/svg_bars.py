"""Horizontal bar charts as inline SVG: one bar per item with its value (and an interval
whisker) written after it, or one bar of stacked segments (a role each) per item. A row that
was not measured says why instead of its bar. The chart is made wide enough for its longest
label and every value text: nothing is cut."""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from html import escape

from layerbench.render.svg import (
    LEGEND_ROW,
    MARGIN,
    PALETTE,
    WIDTH,
    box_swatch,
    legend,
    legend_rows,
    legend_width,
    open_svg,
    text,
    text_width,
    title_width,
)

BAR_HEIGHT = 20
BAR_GAP = 8
TOP = 30
GAP = 6  # between a bar's end and its value
PLOT_MIN = 240


@dataclass(frozen=True)
class Bar:
    label: str
    value: float
    low: float | None = None
    high: float | None = None
    note: str = ""
    # Why the item has no value ("error: …"): said in place of its bar.
    failure: str = ""


def value_text(value: float) -> str:
    return f"{value:,.0f}" if abs(value) >= 100 else f"{value:.3g}"


def _layout(
    title: str, labels: Sequence[str], ends: Sequence[float], after: Sequence[str], extra: float
) -> tuple[float, float, float]:
    """The chart's width, the labels' column and the plot's width: each row's bar (``ends``
    as a fraction of the plot) followed by its text ``after`` fits, and the plot is at least
    PLOT_MIN wide; ``extra`` is a width the chart needs anyway (a legend's)."""
    left = max([text_width(label) for label in labels] + [40.0]) + 2 * MARGIN
    width = max(WIDTH, title_width(title), extra)

    def plot_for(total: float) -> float:
        room = total - MARGIN - left
        pairs = zip(ends, after, strict=True)
        bounds = [(room - GAP - text_width(t)) / end for end, t in pairs if end > 0]
        return min([room, *bounds])

    width = max(width, *(left + GAP + text_width(t) + MARGIN for t in after), 0.0)
    plot = plot_for(width)
    if plot < PLOT_MIN:
        width += PLOT_MIN - plot
        plot = plot_for(width)
    return width, left, plot


def bar_chart(title: str, bars: Sequence[Bar], unit: str) -> str:
    """One horizontal bar per item, scaled to the largest value or interval end."""
    top = max([bar.high or bar.value for bar in bars if not bar.failure] + [1e-9])
    after = [
        bar.failure or f"{value_text(bar.value)} {unit}" + (f" {bar.note}" if bar.note else "")
        for bar in bars
    ]
    ends = [0.0 if bar.failure else max(bar.value, bar.high or 0) / top for bar in bars]
    width, left, plot = _layout(title, [bar.label for bar in bars], ends, after, 0.0)
    height = TOP + len(bars) * (BAR_HEIGHT + BAR_GAP) + 10
    parts = [open_svg(title, width, height)]
    for i, bar in enumerate(bars):
        y = TOP + i * (BAR_HEIGHT + BAR_GAP)
        parts.append(text(left - GAP, y + 14, bar.label, anchor="end"))
        if bar.failure:
            parts.append(text(left + GAP, y + 14, bar.failure, css="failure"))
            continue
        length = max(1.0, plot * bar.value / top)
        parts.append(
            f'<rect class="bar" x="{left:.1f}" y="{y}" width="{length:.1f}" '
            f'height="{BAR_HEIGHT}" fill="{PALETTE[0]}"><title>{escape(bar.label)}: '
            f"{value_text(bar.value)} {escape(unit)}</title></rect>"
        )
        if bar.low is not None and bar.high is not None:
            x1, x2 = left + plot * bar.low / top, left + plot * bar.high / top
            mid = y + BAR_HEIGHT / 2
            parts.append(
                f'<path class="interval" d="M{x1:.1f},{mid - 5}v10M{x1:.1f},{mid}H{x2:.1f}'
                f'M{x2:.1f},{mid - 5}v10" stroke="#222" fill="none"/>'
            )
        parts.append(text(left + plot * ends[i] + GAP, y + 14, after[i]))
    parts.append("</svg>")
    return "".join(parts)


def stacked_bar_chart(
    title: str, labels: Sequence[str], stacks: Mapping[str, Sequence[float]], unit: str
) -> str:
    """One horizontal bar per label, made of one segment per stack (a role, say)."""
    totals = [sum(values[i] for values in stacks.values()) for i in range(len(labels))]
    top = max([*totals, 1e-9])
    after = [f"{total:.3g} {unit}" for total in totals]
    names = list(stacks)
    width, left, plot = _layout(
        title, labels, [t / top for t in totals], after, legend_width(names, MARGIN)
    )
    rows = legend_rows(names, MARGIN, width - MARGIN)
    legend_y = TOP + len(labels) * (BAR_HEIGHT + BAR_GAP) + 12
    height = legend_y + len(rows) * LEGEND_ROW + 4
    parts = [open_svg(title, width, height)]
    for i, label in enumerate(labels):
        y = TOP + i * (BAR_HEIGHT + BAR_GAP)
        parts.append(text(left - GAP, y + 14, label, anchor="end"))
        x = left
        for colour, (name, values) in zip(PALETTE, stacks.items(), strict=False):
            length = plot * values[i] / top
            if length > 0:
                parts.append(
                    f'<rect class="bar" x="{x:.1f}" y="{y}" width="{length:.1f}" '
                    f'height="{BAR_HEIGHT}" fill="{colour}"><title>{escape(label)}, '
                    f"{escape(name)}: {values[i]:.4g} {escape(unit)}</title></rect>"
                )
            x += length
        parts.append(text(x + GAP, y + 14, after[i]))
    parts.append(
        legend(names, lambda i, x, y: box_swatch(PALETTE[i % len(PALETTE)], x, y), rows, legend_y)
    )
    parts.append("</svg>")
    return "".join(parts)
