"""The same results as plain data: a Markdown table and CSV (one row per rung or matrix cell),
and the JSON document. CSV's columns are named for programs, with their units
(``requests_per_s``, ``change_vs_above`` as a fraction); Markdown's for people, with its
figures as the terminal shows them (``req/s``, ``vs above`` ``-23 %``, ``CV %``). CSV ends
with each row's paired verdict (:mod:`layerbench.results.paired_verdict`): a rung's against the
rung above (``vs_above_ratio``, ``_ci_low``, ``_ci_high``, ``_passes``, ``_verdict``), a matrix
cell's against the first column's (``vs_first_…``), as the JSON document has them."""

import csv
import io
import json
from collections.abc import Callable
from typing import Any

from layerbench.ladder.app_costs import TITLE as COSTS_TITLE
from layerbench.ladder.app_costs import app_cost_rows
from layerbench.ladder.ladder_result import LadderResult, RungResult, ladder_memory_items
from layerbench.ladder.mix_lines import mix_rows
from layerbench.matrix.matrix_result import Cell, MatrixResult, matrix_memory_items
from layerbench.render.worker_memory import TITLE as MEMORY_TITLE
from layerbench.render.worker_memory import (
    memory_rows,
)
from layerbench.report.run_facts import condition_facts, facts_sentence, load_facts
from layerbench.report.served_rows import TITLE as SERVED_TITLE
from layerbench.report.served_rows import served_rows
from layerbench.results.paired_verdict import FLAT_FIELDS, flat_columns
from layerbench.results.trials import Repeated

# Per column: its CSV name, its Markdown header, and how Markdown writes its value.
Column = tuple[str, str, Callable[[Any], str]]
# An item's values by column: a name, a figure, or nothing measured.
Values = dict[str, str | float | None]


def _text(value: Any) -> str:
    return "" if value is None else str(value).replace("|", "\\|")


def _rate(value: Any) -> str:
    return "" if value is None else f"{value:,.0f}"


def _change(value: Any) -> str:
    return "—" if value is None else f"{value:+.0%}".replace("%", " %")


def _ms(value: Any) -> str:
    return "" if value is None else f"{value:.3f}"


def _one_decimal(value: Any) -> str:
    return "" if value is None else f"{value:.1f}"


def _whole(value: Any) -> str:
    return "" if value is None else f"{value:,.0f}"


LADDER_COLUMNS: tuple[Column, ...] = (
    ("rung", "rung", _text),
    ("server", "server", _text),
    ("status", "status", _text),
    ("requests_per_s", "req/s", _rate),
    ("change_vs_above", "vs above", _change),
    ("change_vs_top", "vs top", _change),
    ("ms_per_request", "ms/req", _ms),
    ("latency_p50_ms", "p50 ms", _ms),
    ("latency_p99_ms", "p99 ms", _ms),
    ("latency_p99_9_ms", "p99.9 ms", _ms),
    ("errors", "errors", _whole),
    ("cv_percent", "CV %", _one_decimal),
    ("app", "app", _text),  # the application that answered (ladder --app, --apps)
    ("above", "above", _text),  # the rung "vs above" is against (its chain's first measured)
)
MATRIX_COLUMNS: tuple[Column, ...] = (
    ("server", "server", _text),  # the cell's column: its server configuration
    ("concurrency", "c", _text),
    ("status", "status", _text),
    ("requests_per_s", "req/s", _rate),
    ("ms_per_request", "ms/req", _ms),
    ("latency_p99_ms", "p99 ms", _ms),
    ("errors", "errors", _whole),
)


def _columns(result: LadderResult | MatrixResult) -> tuple[list[Column], list[Values]]:
    """Every column above, then each role's CPU % and PSS in MiB; and the items (rungs or
    cells) with those values."""
    matrix = isinstance(result, MatrixResult)
    items: list[Repeated] = (
        list(result.cells) if isinstance(result, MatrixResult) else list(result.rungs)
    )
    roles: list[str] = []
    for item in items:
        roles += [role for role in (item.usage.roles if item.usage else {}) if role not in roles]
    columns = list(MATRIX_COLUMNS if matrix else LADDER_COLUMNS)
    columns += [(f"{role}_cpu_percent", f"{role} CPU %", _whole) for role in roles]
    columns += [(f"{role}_pss_mib", f"{role} PSS MiB", _one_decimal) for role in roles]
    if isinstance(result, MatrixResult):
        values = [_cell_values(cell) for cell in result.cells]
    else:
        values = [
            _rung_values(rung, change, top, above)
            for rung, change, top, above in zip(
                result.rungs,
                result.change_vs_above(),
                result.change_vs_top(),
                result.references(),
                strict=True,
            )
        ]
    for item, flat in zip(items, values, strict=True):
        for role in roles:
            usage = item.usage.roles.get(role) if item.usage else None
            flat[f"{role}_cpu_percent"] = usage.cpu_percent if usage else None
            flat[f"{role}_pss_mib"] = _mib(usage.pss_bytes if usage else None)
    return columns, values


def _figures(item: Repeated) -> Values:
    """The figures ladders and matrices share."""
    spread = item.spread
    return {
        "requests_per_s": item.requests_per_s,
        "ms_per_request": item.ms_per_request,
        "latency_p50_ms": item.latency_ms("p50"),
        "latency_p99_ms": item.latency_ms("p99"),
        "latency_p99_9_ms": item.latency_ms("p99_9"),
        "errors": item.load.errors if item.load else None,
        "cv_percent": None if spread is None else round(100 * spread.cv, 2),
    }


def _rung_values(
    rung: RungResult, change: float | None, top: float | None, above: RungResult | None
) -> Values:
    return {
        "rung": rung.rung,
        "app": rung.app,
        "above": above.rung if above else None,
        "server": rung.server,
        "status": rung.status.value,
        "change_vs_above": change,
        "change_vs_top": top,
        **_figures(rung),
    }


def _cell_values(cell: Cell) -> Values:
    return {
        "server": cell.column,
        "concurrency": cell.concurrency,
        "status": cell.status.value,
        **_figures(cell),
    }


def rows_of(result: LadderResult | MatrixResult) -> tuple[list[str], list[list[Any]]]:
    """CSV's column names and rows of raw values, each row's paired verdict last."""
    columns, items = _columns(result)
    names = [name for name, _, _ in columns]
    if isinstance(result, MatrixResult):
        prefix, compared = "vs_first_", result.compared_vs_first()
    else:
        prefix, compared = "vs_above_", result.compared_vs_above()
    verdicts = [flat_columns(prefix, comparison) for comparison in compared]
    verdict_names = [prefix + name for name in FLAT_FIELDS]
    return names + verdict_names, [
        [item.get(name) for name in names] + [verdict[name] for name in verdict_names]
        for item, verdict in zip(items, verdicts, strict=True)
    ]


def to_csv(result: LadderResult | MatrixResult) -> str:
    header, rows = rows_of(result)
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(header)
    writer.writerows(["" if value is None else value for value in row] for row in rows)
    return out.getvalue()


def to_markdown(result: LadderResult | MatrixResult) -> str:
    """The run's table (a row per rung or cell), the mix's lines, what each application costs
    over bare (``--apps``), the memory per worker, the served cost (``--measure``); then what
    it was measured under: its label and load, the machine, versions and date it recorded."""
    columns, items = _columns(result)
    header = [human for _, human, _ in columns]
    rows = [[write(item.get(name)) for name, _, write in columns] for item in items]
    lines = _markdown_table(header, rows)
    if isinstance(result, LadderResult) and result.mix is not None:
        mix_header, *mix = mix_rows(result.mix)
        lines += ["", *_markdown_table(mix_header, mix)]
    if isinstance(result, LadderResult):
        costs = app_cost_rows(result)
        if costs:
            lines += ["", COSTS_TITLE]
        for rung_name, (costs_header, *cost_rows) in costs:
            lines += ["", f"{rung_name}:", "", *_markdown_table(costs_header, cost_rows)]
        memory = ladder_memory_items(result)
    else:
        memory = matrix_memory_items(result)
    memory_header, *memory_rows_ = memory_rows(memory)
    if memory_rows_:
        lines += ["", _text(" ".join(MEMORY_TITLE.split())), ""]
        lines += _markdown_table(["", *memory_header[1:]], memory_rows_)
    served = served_rows(result.served)
    if served is not None:
        lines += ["", f"{SERVED_TITLE}: {_text(served.caption)}", ""]
        lines += _markdown_table(served.header, served.rows)
    lines += ["", markdown_caption(result)]
    return "\n".join(lines) + "\n"


def markdown_caption(result: LadderResult | MatrixResult) -> str:
    """What the run was measured under, one paragraph: its load, then its conditions."""
    return (
        "Run: "
        + _text(facts_sentence(load_facts(result)))
        + ".  \nMeasured on: "
        + _text(facts_sentence(condition_facts(result)))
        + "."
    )


def _markdown_table(header: list[str], rows: list[list[str]]) -> list[str]:
    lines = ["| " + " | ".join(map(_text, header)) + " |", "|" + "---|" * len(header)]
    return lines + ["| " + " | ".join(map(_text, row)) + " |" for row in rows]


def to_json(result: LadderResult | MatrixResult) -> str:
    """The result as this layerbench writes it (a document of an older version comes out in
    the current one)."""
    return json.dumps(result.to_dict(), indent=2) + "\n"


def _mib(value: int | None) -> float | None:
    return None if value is None else round(value / (1024 * 1024), 1)
