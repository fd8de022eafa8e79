"""One self-contained HTML file for a ladder or matrix run (its JSON document): tables and
inline SVG charts, styles inline, no script, nothing fetched from the network.

Ladder: req/s per rung with its 95 % interval, latency percentile curves (HdrHistogram's
layout: the tail stretched on a log axis), CPU per 1,000 requests by role, memory per process;
for ``layerbench mix``, the prediction against the measurement.
Matrix: req/s and p99 against concurrency per server configuration, CPU per 1,000 requests by
role in every cell."""

import math
from html import escape
from typing import Any

from layerbench.report.mix_lines import mix_rows
from layerbench.report.svg import Bar, Series, bar_chart, line_chart, stacked_bar_chart

MIB = 1024 * 1024
PERCENTILES = (
    ("p50", 0.5),
    ("p75", 0.75),
    ("p90", 0.9),
    ("p95", 0.95),
    ("p99", 0.99),
    ("p99_9", 0.999),
)
STYLE = """
body { font: 14px/1.4 system-ui, sans-serif; margin: 2em auto; max-width: 800px; color: #222 }
h1 { font-size: 1.4em } h2 { font-size: 1.1em; margin-top: 2em }
table { border-collapse: collapse; margin: 1em 0 } td, th { padding: 2px 8px }
th { text-align: left; border-bottom: 1px solid #999 } td.n { text-align: right }
svg.chart text { font: 12px system-ui, sans-serif } svg.chart text.title { font-weight: bold }
"""


def html_report(document: dict[str, Any]) -> str:
    if "cells" in document:
        return _page("layerbench matrix", _matrix_sections(document), document)
    return _page("layerbench ladder", _ladder_sections(document), document)


def _measured(document: dict[str, Any]) -> list[dict[str, Any]]:
    return [rung for rung in document.get("rungs", []) if rung.get("requests_per_s")]


def _ladder_sections(document: dict[str, Any]) -> list[str]:
    rungs = _measured(document)
    sections = [_ladder_table(document.get("rungs", []))]
    if document.get("mix"):
        header, *rows = mix_rows(document["mix"])
        sections.append("<h2>Mixed load</h2>" + _table(header, rows))
    bars = []
    for rung in rungs:
        spread = rung.get("spread") or {}
        bars.append(
            Bar(
                rung["rung"],
                rung["requests_per_s"],
                spread.get("ci95_low_requests_per_s") if spread.get("n", 1) > 1 else None,
                spread.get("ci95_high_requests_per_s") if spread.get("n", 1) > 1 else None,
                "(noisy)" if rung.get("noisy") else "",
            )
        )
    sections.append(
        _figure(bar_chart("requests per second (median, 95 % interval)", bars, "req/s"))
    )
    curves = [_latency_series(rung["rung"], rung) for rung in rungs]
    sections.append(_figure(_latency_chart([c for c in curves if c.points])))
    sections.append(_figure(_cpu_chart([(rung["rung"], rung) for rung in rungs])))
    sections.append(_figure(_memory_chart(rungs)))
    return sections


def _ladder_table(rungs: list[dict[str, Any]]) -> str:
    header = ["rung", "server", "req/s", "CV %", "p50 ms", "p99 ms", "p99.9 ms", "errors"]
    rows = []
    for rung in rungs:
        cv = (rung.get("spread") or {}).get("cv")
        rows.append(
            [
                rung["rung"],
                rung.get("server", ""),
                _number(rung.get("requests_per_s"), ",.0f"),
                _number(100 * cv if cv is not None else None, ".1f"),
                _number(rung.get("latency_p50_ms"), ".3f"),
                _number(rung.get("latency_p99_ms"), ".3f"),
                _number(rung.get("latency_p99_9_ms"), ".3f"),
                _number(rung.get("errors"), "d") if rung.get("status") == "ok" else rung["status"],
            ]
        )
    return _table(header, rows)


def _latency_series(name: str, item: dict[str, Any]) -> Series:
    latency = ((item.get("load") or {}).get("latency_us")) or {}
    points = tuple(
        (_tail_position(fraction), latency[key] / 1000)
        for key, fraction in PERCENTILES
        if latency.get(key)
    )
    return Series(name, points)


def _tail_position(fraction: float) -> float:
    """HdrHistogram's percentile axis: 1 / (1 - p) on a log scale (90 % → 1, 99 % → 2)."""
    return math.log10(1 / (1 - fraction))


def _latency_chart(series: list[Series]) -> str:
    ticks = [(_tail_position(f), f"{100 * f:g}%") for _, f in PERCENTILES]
    return line_chart(
        "latency by percentile (ms, log scale)",
        series,
        x_label="percentile",
        y_label="ms",
        x_ticks=ticks,
        log_y=True,
    )


def _cpu_chart(items: list[tuple[str, dict[str, Any]]]) -> str:
    roles: list[str] = []
    for _, item in items:
        roles += [role for role in (item.get("roles") or {}) if role not in roles]
    stacks = {
        role: [
            ((item.get("roles") or {}).get(role) or {}).get("cpu_s_per_1000_requests") or 0.0
            for _, item in items
        ]
        for role in roles
    }
    return stacked_bar_chart(
        "CPU seconds per 1,000 requests, by role", [label for label, _ in items], stacks, "s"
    )


def _memory_chart(rungs: list[dict[str, Any]]) -> str:
    """Every process of the last measured rung that has them: PSS, by role."""
    bars: list[Bar] = []
    for rung in reversed(rungs):
        for role, usage in (rung.get("roles") or {}).items():
            for process in usage.get("processes", []):
                label = f"{role}: {process['name']} {process['pid']}"
                bars.append(Bar(label[:24], process["pss_bytes"] / MIB))
        if bars:
            title = f"memory per process (PSS, MiB) during the {rung['rung']} rung"
            return bar_chart(title, bars, "MiB")
    return bar_chart("memory per process (PSS, MiB)", [], "MiB")


def _matrix_sections(document: dict[str, Any]) -> list[str]:
    cells = [cell for cell in document.get("cells", []) if cell.get("requests_per_s")]
    columns = [column["label"] for column in document.get("columns", [])]
    levels = sorted({cell["concurrency"] for cell in cells})
    position = {level: i for i, level in enumerate(levels)}
    ticks = [(float(i), str(level)) for i, level in enumerate(levels)]

    def series(figure: str) -> list[Series]:
        return [
            Series(
                label,
                tuple(
                    (float(position[cell["concurrency"]]), cell[figure])
                    for cell in cells
                    if cell["column"] == label and cell.get(figure)
                ),
            )
            for label in columns
        ]

    rows = [
        [
            cell["column"],
            str(cell["concurrency"]),
            _number(cell.get("requests_per_s"), ",.0f"),
            _number(cell.get("latency_p99_ms"), ".1f"),
            _number(cell.get("errors"), "d"),
        ]
        for cell in document.get("cells", [])
    ]
    return [
        _table(["server", "c", "req/s", "p99 ms", "errors"], rows),
        _figure(
            line_chart(
                "requests per second against concurrency",
                series("requests_per_s"),
                x_label="concurrency",
                y_label="req/s",
                x_ticks=ticks,
            )
        ),
        _figure(
            line_chart(
                "p99 latency against concurrency (ms, log scale)",
                series("latency_p99_ms"),
                x_label="concurrency",
                y_label="ms",
                x_ticks=ticks,
                log_y=True,
            )
        ),
        _figure(_cpu_chart([(f"{c['column'][:16]} c={c['concurrency']}", c) for c in cells])),
    ]


def _page(title: str, sections: list[str], document: dict[str, Any]) -> str:
    conditions = document.get("conditions") or {}
    machine = conditions.get("machine") or {}
    facts = [[key, str(value)] for key, value in machine.items()]
    facts += [
        [name, str(version)] for name, version in (conditions.get("server_versions") or {}).items()
    ]
    when = f"{document.get('started_at', '')} to {document.get('finished_at', '')}"
    return (
        "<!doctype html>\n<html lang=en><meta charset=utf-8>"
        f"<title>{escape(title)}</title><style>{STYLE}</style>"
        f"<h1>{escape(title)}</h1><p>{escape(when)}"
        + (" (interrupted)" if document.get("interrupted") else "")
        + "</p>"
        + "".join(sections)
        + "<h2>Conditions</h2>"
        + _table(["", ""], facts)
        + "\n</html>\n"
    )


def _figure(svg: str) -> str:
    return f"<figure>{svg}</figure>"


def _table(header: list[str], rows: list[list[str]]) -> str:
    head = "".join(f"<th>{escape(cell)}</th>" for cell in header)
    body = "".join(
        "<tr>"
        + "".join(
            f'<td class="n">{escape(cell)}</td>' if i > 1 else f"<td>{escape(cell)}</td>"
            for i, cell in enumerate(row)
        )
        + "</tr>"
        for row in rows
    )
    return f"<table><tr>{head}</tr>{body}</table>"


def _number(value: float | int | None, spec: str) -> str:
    return "" if value is None else format(value, spec)
