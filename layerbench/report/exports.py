"""The same results as plain data: a Markdown table and CSV (one row per rung or matrix cell),
and the JSON document itself. CSV's columns are named for programs, with their units
(``requests_per_s``, ``change_vs_above`` as a fraction); Markdown's for people, with its
figures as the terminal shows them (``req/s``, ``vs above`` ``-23 %``, ``CV %``)."""

import csv
import io
import json
from collections.abc import Callable
from typing import Any

from layerbench.report.mix_lines import mix_rows

# Per column: its CSV name, its Markdown header, and how Markdown writes its value.
Column = tuple[str, str, Callable[[Any], str]]


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


def _columns(document: dict[str, Any]) -> tuple[list[Column], list[dict[str, Any]]]:
    """Every column above, then each role's CPU % and PSS in MiB; and the items (rungs or
    cells) with those values."""
    matrix = "cells" in document
    items = list(document.get("cells" if matrix else "rungs") or [])
    roles: list[str] = []
    for item in items:
        roles += [role for role in (item.get("roles") or {}) if role not in roles]
    columns = list(MATRIX_COLUMNS if matrix else LADDER_COLUMNS)
    columns += [(f"{role}_cpu_percent", f"{role} CPU %", _whole) for role in roles]
    columns += [(f"{role}_pss_mib", f"{role} PSS MiB", _one_decimal) for role in roles]
    values = []
    for item in items:
        cv = (item.get("spread") or {}).get("cv")
        flat = {**item, "cv_percent": None if cv is None else round(100 * cv, 2)}
        if matrix:
            flat["server"] = item.get("column")
        for role in roles:
            usage = (item.get("roles") or {}).get(role) or {}
            flat[f"{role}_cpu_percent"] = usage.get("cpu_percent")
            flat[f"{role}_pss_mib"] = _mib(usage.get("pss_bytes"))
        values.append(flat)
    return columns, values


def rows_of(document: dict[str, Any]) -> tuple[list[str], list[list[Any]]]:
    """CSV's column names and rows of raw values."""
    columns, items = _columns(document)
    return [name for name, _, _ in columns], [
        [item.get(name) for name, _, _ in columns] for item in items
    ]


def to_csv(document: dict[str, Any]) -> str:
    header, rows = rows_of(document)
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(header)
    writer.writerows(["" if value is None else value for value in row] for row in rows)
    return out.getvalue()


def to_markdown(document: dict[str, Any]) -> str:
    columns, items = _columns(document)
    header = [human for _, human, _ in columns]
    rows = [[write(item.get(name)) for name, _, write in columns] for item in items]
    lines = _markdown_table(header, rows)
    if document.get("mix"):
        mix_header, *mix = mix_rows(document["mix"])
        lines += ["", *_markdown_table(mix_header, mix)]
    return "\n".join(lines) + "\n"


def _markdown_table(header: list[str], rows: list[list[str]]) -> list[str]:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    return lines + ["| " + " | ".join(row) + " |" for row in rows]


def to_json(document: dict[str, Any]) -> str:
    return json.dumps(document, indent=2) + "\n"


def _mib(value: int | None) -> float | None:
    return None if value is None else round(value / (1024 * 1024), 1)
