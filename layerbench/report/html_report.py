"""One self-contained HTML file for a ladder or matrix run (its result): tables and
inline SVG charts, styles inline, no script, nothing fetched from the network.

Ladder: req/s per rung with its 95 % interval, latency percentile curves (HdrHistogram's
layout: the tail stretched on a log axis), CPU per 1,000 requests by role, memory per process;
for ``layerbench mix``, the prediction against the measurement.
Matrix: req/s and p99 against concurrency per server configuration, CPU per 1,000 requests by
role in every cell."""

import math
from collections.abc import Callable, Iterable
from dataclasses import asdict
from html import escape
from typing import Any

from layerbench.cost.cost_result import CostResult
from layerbench.ladder.app_costs import TITLE as COSTS_TITLE
from layerbench.ladder.app_costs import app_cost_rows
from layerbench.ladder.ladder_result import LadderResult, RungResult, ladder_memory_items
from layerbench.ladder.mix_lines import mix_rows
from layerbench.matrix.matrix_result import Cell, MatrixResult, matrix_memory_items
from layerbench.render.host_table import TITLE as HOST_TITLE
from layerbench.render.host_table import host_roles, host_table_rows
from layerbench.render.svg_bars import Bar, bar_chart, stacked_bar_chart
from layerbench.render.svg_lines import Series, line_chart
from layerbench.render.worker_memory import (
    TITLE,
    memory_rows,
)
from layerbench.report.profile_sections import matrix_profile_sections, profile_sections
from layerbench.report.run_facts import load_facts
from layerbench.report.served_rows import TITLE as SERVED_TITLE
from layerbench.report.served_rows import served_rows
from layerbench.results.measured_under import MeasuredUnder
from layerbench.results.status import Status
from layerbench.results.trials import Repeated
from layerbench.stats.comparison import RungComparison

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
th { text-align: left; border-bottom: 1px solid #999; white-space: nowrap }
td.n { text-align: right } td:first-child { white-space: nowrap }
svg.chart { max-width: 100%; height: auto }
svg.chart text { font: 12px system-ui, sans-serif } svg.chart text.title { font-weight: bold }
svg.chart text.failure, td.failure { fill: #a33; color: #a33 }
"""


def html_report(result: LadderResult | MatrixResult) -> str:
    if isinstance(result, MatrixResult):
        return _page("layerbench matrix", _matrix_sections(result), result)
    return _page("layerbench ladder", _ladder_sections(result), result)


def _ladder_sections(result: LadderResult) -> list[str]:
    rungs = [rung for rung in result.rungs if rung.requests_per_s]
    name = result.label  # with several applications, "APP RUNG"
    sections = [
        _ladder_table(result),
        _app_costs(result),
        _host_table(result.measured_under, ladder_memory_items(result)),
    ]
    if result.mix is not None:
        header, *rows = mix_rows(result.mix)
        sections.append("<h2>Mixed load</h2>" + _table(header, rows, numeric=(1, 2)))
    bars = []
    for rung in result.rungs:
        if not rung.requests_per_s:
            bars.append(Bar(name(rung), 0.0, failure=_failure(rung.status, rung.message)))
            continue
        spread = rung.spread
        repeated = spread is not None and spread.n > 1
        bars.append(
            Bar(
                name(rung),
                rung.requests_per_s,
                spread.ci_low if spread is not None and repeated else None,
                spread.ci_high if spread is not None and repeated else None,
                "(noisy)" if rung.noisy else "",
            )
        )
    sections.append(
        _figure(bar_chart("requests per second (median, 95 % interval)", bars, "req/s"))
    )
    if result.instructions is not None:
        sections.append(_figure(_instructions_chart(result.instructions)))
    curves = [_latency_series(name(rung), rung) for rung in rungs]
    sections.append(_figure(_latency_chart([c for c in curves if c.points])))
    sections.append(_figure(_cpu_chart([(name(rung), rung) for rung in rungs])))
    sections.append(_figure(_memory_chart(rungs)))
    sections.append(_memory_table(ladder_memory_items(result)))
    sections.append(_served_table(result))
    sections.extend(profile_sections(result))
    return sections


def _instructions_chart(cost: CostResult) -> str:
    """Instructions per request of each rung counted (``ladder --instructions``), the median of
    the repeats, the whisker from the fewest to the most."""
    bars = [
        Bar(
            request.label,
            request.median,
            min(request.instructions_per_request),
            max(request.instructions_per_request),
        )
        for request in cost.requests
    ]
    title = "instructions per request (in-process, callgrind; median, fewest to most)"
    return bar_chart(title, bars, "instr/req")


def _memory_table(items: list[tuple[str, Repeated]]) -> str:
    """Per worker of the server: RSS (as the seeds read it off top), PSS and USS."""
    header, *rows = memory_rows(items)
    if not rows:
        return ""
    return f"<h2>Memory per worker</h2><p>{escape(TITLE)}</p>" + _table(
        header, rows, numeric=range(1, len(header))
    )


def _served_table(result: LadderResult | MatrixResult) -> str:
    """The served cost per column and role (``--measure``), nothing without."""
    served = served_rows(result.served)
    if served is None:
        return ""
    caption = served.caption[:1].upper() + served.caption[1:]
    return f"<h2>{escape(SERVED_TITLE)}</h2><p>{escape(caption)}</p>" + _table(
        served.header, served.rows, numeric=served.numeric
    )


def _host_table(conditions: MeasuredUnder, items: list[tuple[str, Repeated]]) -> str:
    """On a topology: CPU and PSS per host and role (:mod:`layerbench.render.host_table`)."""
    topology = conditions.topology
    if topology is None:
        return ""
    header, *rows = host_table_rows(host_roles(topology, items), [label for label, _ in items])
    return f"<h2>Per host</h2><p>{escape(HOST_TITLE)}</p>" + _table(
        header, rows, numeric=range(4, len(header))
    )


def _ladder_table(result: LadderResult) -> str:
    header = ["rung", "server", "req/s", "vs above", "vs top", "CV %", "p50 ms", "p99 ms"]
    header += ["p99.9 ms", "errors", "vs above, paired", ""]
    rows = []
    for rung, change, top, compared in zip(
        result.rungs,
        result.change_vs_above(),
        result.change_vs_top(),
        result.compared_vs_above(),
        strict=True,
    ):
        spread = rung.spread
        errors = rung.load.errors if rung.load else None
        rows.append(
            [
                result.label(rung),
                rung.server,
                _number(rung.requests_per_s, ",.0f"),
                _change(change) if rung.load else "",
                _change(top) if rung.load else "",
                _number(100 * spread.cv if spread is not None else None, ".1f"),
                _number(rung.latency_ms("p50"), ".3f"),
                _number(rung.latency_ms("p99"), ".3f"),
                _number(rung.latency_ms("p99_9"), ".3f"),
                _number(errors, "d") if rung.status is Status.OK else rung.status.value,
                _verdict(compared),
                rung.message or "",
            ]
        )
    return _table(header, rows, numeric=range(2, 10))


def _verdict(compared: RungComparison | None) -> str:
    """A paired comparison's verdict as the terminal says it (none for a single pass)."""
    return compared.verdict if compared is not None and compared.trials >= 2 else ""


def _change(change: float | None) -> str:
    """Against the rung above or the top, as the terminal shows it: ``-23 %``, ``—``."""
    return "—" if change is None else f"{change:+.0%}".replace("%", " %")


def _app_costs(result: LadderResult) -> str:
    """``ladder --apps``: per rung, what each application costs over bare (the terminal's)."""
    tables = app_cost_rows(result)
    if not tables:
        return ""
    parts = [f"<h2>What each application costs</h2><p>{escape(COSTS_TITLE)}</p>"]
    for rung_name, (header, *rows) in tables:
        parts.append(f"<h3>{escape(rung_name)}</h3>" + _table(header, rows, numeric=range(1, 5)))
    return "".join(parts)


def _latency_series(name: str, item: Repeated) -> Series:
    latency = item.load.latency_us if item.load else {}
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


def _cpu_chart(items: list[tuple[str, Repeated]]) -> str:
    roles: list[str] = []
    for _, item in items:
        roles += [role for role in (item.usage.roles if item.usage else {}) if role not in roles]

    def per_1000(item: Repeated, role: str) -> float:
        usage = item.usage.roles.get(role) if item.usage else None
        requests = item.load.requests_completed if item.load else 0
        return (usage.cpu_s_per_1000(requests) if usage else None) or 0.0

    stacks = {role: [per_1000(item, role) for _, item in items] for role in roles}
    return stacked_bar_chart(
        "CPU seconds per 1,000 requests, by role", [label for label, _ in items], stacks, "s"
    )


def _memory_chart(rungs: list[RungResult]) -> str:
    """Every process of the last measured rung that has them: PSS, by role and name (the
    processes of one name numbered in the order they started)."""
    bars: list[Bar] = []
    for rung in reversed(rungs):
        for role, usage in (rung.usage.roles if rung.usage else {}).items():
            processes = sorted(usage.processes, key=lambda process: process.pid)
            names = [process.name for process in processes]
            for process in processes:
                label = f"{role}: {process.name}"
                same = [p for p in processes if p.name == process.name]
                if names.count(process.name) > 1:
                    label += f", process {same.index(process) + 1} of {len(same)}"
                bars.append(Bar(label, process.pss_bytes / MIB))
        if bars:
            title = f"memory per process (PSS, MiB) during the {rung.rung} rung"
            return bar_chart(title, bars, "MiB")
    return bar_chart("memory per process (PSS, MiB)", [], "MiB")


def _matrix_sections(result: MatrixResult) -> list[str]:
    every = result.cells
    cells = [cell for cell in every if cell.requests_per_s]
    rows = [
        [
            cell.column,
            str(cell.concurrency),
            _number(cell.requests_per_s, ",.0f"),
            _number(cell.latency_ms("p99"), ".1f"),
            _number(cell.load.errors if cell.load else None, ",d")
            if cell.status is Status.OK
            else cell.status.value,
            _verdict(compared),
            cell.message or _error_kinds(cell),
        ]
        for cell, compared in zip(every, result.compared_vs_first(), strict=True)
    ]
    first = f"vs {result.first_column}, paired" if result.first_column else "vs the first"

    levels = sorted({cell.concurrency for cell in every})
    charts = _level_bars(result) if len(levels) == 1 else _level_lines(result)
    return [
        _table(["server", "c", "req/s", "p99 ms", "errors", first, ""], rows, numeric=range(1, 5)),
        _host_table(result.measured_under, matrix_memory_items(result)),
        *charts,
        _figure(_cpu_chart([(f"{c.column} c={c.concurrency}", c) for c in cells])),
        _memory_table(matrix_memory_items(result)),
        _served_table(result),
        *matrix_profile_sections(result),
    ]


def _rate(cell: Cell) -> float | None:
    return cell.requests_per_s


def _p99(cell: Cell) -> float | None:
    return cell.latency_ms("p99")


def _level_bars(result: MatrixResult) -> list[str]:
    """One concurrency level: a bar per column, a failed one with its reason."""

    def bars(figure: Callable[[Cell], float | None]) -> list[Bar]:
        return [
            Bar(cell.column, value)
            if (value := figure(cell))
            else Bar(cell.column, 0.0, failure=_failure(cell.status, cell.message))
            for cell in result.cells
        ]

    level = result.cells[0].concurrency
    return [
        _figure(bar_chart(f"requests per second at c={level}", bars(_rate), "req/s")),
        _figure(bar_chart(f"p99 latency at c={level} (ms)", bars(_p99), "ms")),
    ]


def _level_lines(result: MatrixResult) -> list[str]:
    """Several concurrency levels: a line per column; the cells not measured said below."""
    cells = [cell for cell in result.cells if cell.requests_per_s]
    columns = [column.label for column in result.columns]
    levels = sorted({cell.concurrency for cell in result.cells})
    position = {level: i for i, level in enumerate(levels)}
    ticks = [(float(i), str(level)) for i, level in enumerate(levels)]

    def series(figure: Callable[[Cell], float | None]) -> list[Series]:
        return [
            Series(
                label,
                tuple(
                    (float(position[cell.concurrency]), value)
                    for cell in cells
                    if cell.column == label and (value := figure(cell))
                ),
            )
            for label in columns
        ]

    failures = [
        f"{cell.column} c={cell.concurrency}: {_failure(cell.status, cell.message)}"
        for cell in result.cells
        if not cell.requests_per_s
    ]
    caption = (
        "<figcaption>not measured: " + "; ".join(escape(f) for f in failures) + "</figcaption>"
        if failures
        else ""
    )
    rates = line_chart(
        "requests per second against concurrency",
        series(_rate),
        x_label="concurrency",
        y_label="req/s",
        x_ticks=ticks,
    )
    p99 = line_chart(
        "p99 latency against concurrency (ms, log scale)",
        series(_p99),
        x_label="concurrency",
        y_label="ms",
        x_ticks=ticks,
        log_y=True,
    )
    return [_figure(rates, caption), _figure(p99, caption)]


def _failure(status: Status, message: str | None) -> str:
    """Why a rung or cell has no figures: its status and message."""
    return f"{status.value}: {message}" if message else status.value


def _error_kinds(cell: Cell) -> str:
    return ", ".join(f"{kind} {count:,}" for kind, count in cell.errors_by_kind.items())


def _page(title: str, sections: list[str], result: LadderResult | MatrixResult) -> str:
    conditions = result.measured_under
    machine = asdict(conditions.machine) if conditions.machine else {}
    facts = [[key, _known(value)] for key, value in machine.items()]
    facts += [
        [name, _known(version)] for name, version in (conditions.server_versions or {}).items()
    ]
    when = f"{result.started_at} to {result.finished_at}"
    return (
        "<!doctype html>\n<html lang=en><meta charset=utf-8>"
        f"<title>{escape(title)}</title><style>{STYLE}</style>"
        f"<h1>{escape(title)}</h1><p>{escape(when)}"
        + (" (interrupted)" if result.interrupted else "")
        + "</p>"
        + "".join(sections)
        + "<h2>Run</h2>"
        + _table(["", ""], [list(fact) for fact in load_facts(result)], numeric=(), table_id="run")
        + "<h2>Conditions</h2>"
        + _table(["", ""], facts, numeric=(), table_id="conditions")
        + "\n</html>\n"
    )


def _known(value: Any) -> str:
    return "unknown" if value is None else str(value)


def _figure(svg: str, caption: str = "") -> str:
    return f"<figure>{svg}{caption}</figure>"


def _table(
    header: list[str],
    rows: list[list[str]],
    *,
    numeric: Iterable[int],
    table_id: str = "",
) -> str:
    """Columns ``numeric`` right-aligned (figures), the others left."""
    figures = set(numeric)
    head = "".join(f"<th>{escape(cell)}</th>" for cell in header)
    body = "".join(
        "<tr>"
        + "".join(
            f'<td class="n">{escape(cell)}</td>' if i in figures else f"<td>{escape(cell)}</td>"
            for i, cell in enumerate(row)
        )
        + "</tr>"
        for row in rows
    )
    attribute = f' id="{table_id}"' if table_id else ""
    return f"<table{attribute}><tr>{head}</tr>{body}</table>"


def _number(value: float | int | None, spec: str) -> str:
    return "" if value is None else format(value, spec)
