"""The same results as plain data: a Markdown table and CSV (one row per rung or matrix cell,
units in the column names), and the JSON document itself."""

import csv
import io
import json
from typing import Any

from layerbench.report.mix_lines import mix_rows

LADDER_FIELDS = (
    ("rung", "rung"),
    ("server", "server"),
    ("status", "status"),
    ("requests_per_s", "requests_per_s"),
    ("change_vs_above", "change_vs_above"),
    ("change_vs_top", "change_vs_top"),
    ("ms_per_request", "ms_per_request"),
    ("latency_p50_ms", "latency_p50_ms"),
    ("latency_p99_ms", "latency_p99_ms"),
    ("latency_p99_9_ms", "latency_p99_9_ms"),
    ("errors", "errors"),
)
MATRIX_FIELDS = (
    ("server", "column"),
    ("concurrency", "concurrency"),
    ("status", "status"),
    ("requests_per_s", "requests_per_s"),
    ("ms_per_request", "ms_per_request"),
    ("latency_p99_ms", "latency_p99_ms"),
    ("errors", "errors"),
)


def rows_of(document: dict[str, Any]) -> tuple[list[str], list[list[Any]]]:
    """Column names and rows: every field above, then each role's CPU % and PSS in MiB."""
    items = document.get("cells") if "cells" in document else document.get("rungs", [])
    fields = MATRIX_FIELDS if "cells" in document else LADDER_FIELDS
    roles: list[str] = []
    for item in items or []:
        roles += [role for role in (item.get("roles") or {}) if role not in roles]
    header = [name for name, _ in fields]
    header += [f"{role}_cpu_percent" for role in roles]
    header += [f"{role}_pss_mib" for role in roles]
    rows = []
    for item in items or []:
        usage = item.get("roles") or {}
        row = [item.get(key) for _, key in fields]
        row += [(usage.get(role) or {}).get("cpu_percent") for role in roles]
        row += [_mib((usage.get(role) or {}).get("pss_bytes")) for role in roles]
        rows.append(row)
    return header, rows


def to_csv(document: dict[str, Any]) -> str:
    header, rows = rows_of(document)
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(header)
    writer.writerows(["" if value is None else value for value in row] for row in rows)
    return out.getvalue()


def to_markdown(document: dict[str, Any]) -> str:
    header, rows = rows_of(document)
    lines = _markdown_table(header, [[_cell(value) for value in row] for row in rows])
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


def _cell(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, float):
        return f"{value:.4g}" if abs(value) < 1000 else f"{value:,.0f}"
    return str(value).replace("|", "\\|")
