"""The seed's deployment table for the terminal: one column per server configuration, one row
per concurrency level, req/s, ms/req and p99 in each cell; then what each role cost."""

from layerbench.lab.matrix_results import Cell, CellStatus, MatrixResult
from layerbench.report.text_table import format_table
from layerbench.roles import CLIENT_ROLE, FRONT_ROLE, SERVER_ROLE

MIB = 1024 * 1024
ROLE_ORDER = (FRONT_ROLE, SERVER_ROLE, CLIENT_ROLE)
LEGEND = (
    "each cell: req/s | ms/req (mean across concurrent requests) | p99 latency ms; "
    "E n: n failed or non-2xx; * the client was the bottleneck"
)


def format_matrix_table(result: MatrixResult) -> str:
    labels = [column.label for column in result.columns]
    levels = sorted({(cell.row, cell.concurrency) for cell in result.cells})
    header = ["c", *labels]
    rows = [
        [str(c), *[_cell_text(result.cell(label, row)) for label in labels]] for row, c in levels
    ]
    rungs = ["rung", *[column.rung for column in result.columns]]
    lines = format_table([header, rungs, *rows], right_from=1)
    lines += ["", LEGEND]
    lines += ["", *_costs_table(result)]
    notes = _notes(result)
    if notes:
        lines += ["", *notes]
    return "\n".join(lines)


def _cell_text(cell: Cell | None) -> str:
    if cell is None:
        return ""
    if cell.status is not CellStatus.OK or cell.load is None:
        return cell.status.value
    text = f"{cell.load.requests_per_s:,.0f} | {cell.ms_per_request or 0:.2f} | "
    text += f"{cell.latency_ms('p99') or 0:.1f}"
    if cell.load.errors:
        text += f" E {cell.load.errors:,}"
    if cell.client_bound:
        text += " *"
    return text


def _costs_table(result: MatrixResult) -> list[str]:
    roles = [
        role
        for role in ROLE_ORDER
        if any(cell.usage and role in cell.usage.roles for cell in result.cells)
    ]
    header = ["server", "c", "req/s"]
    for role in roles:
        header += [f"{role} CPU %", f"{role} CPU s/1k", f"{role} PSS MiB"]
    rows = [header]
    for cell in result.cells:
        if cell.usage is None or cell.load is None:
            continue
        row = [cell.column, str(cell.concurrency), f"{cell.load.requests_per_s:,.0f}"]
        for role in roles:
            usage = cell.usage.roles.get(role)
            if usage is None:
                row += ["", "", ""]
                continue
            per_1000 = usage.cpu_s_per_1000(cell.load.requests_completed)
            row += [
                f"{usage.cpu_percent:.0f}",
                "" if per_1000 is None else f"{per_1000:.3f}",
                f"{usage.pss_bytes / MIB:.1f}",
            ]
        rows.append(row)
    if len(rows) == 1:
        return []
    title = "what each role cost (CPU % of one core, CPU seconds per 1,000 requests, PSS):"
    own = max(cell.usage.sampler_cpu_percent for cell in result.cells if cell.usage)
    footer = f"the sampler's own cost: at most {own:.1f} % of a core"
    return [title, *format_table(rows, right_from=2), footer]


def _notes(result: MatrixResult) -> list[str]:
    notes = []
    for cell in result.cells:
        if cell.status is not CellStatus.OK:
            notes.append(
                f"  {cell.column} c={cell.concurrency}: {cell.status.value}: {cell.message}"
            )
        elif cell.errors_by_kind:
            kinds = ", ".join(f"{kind} {count:,}" for kind, count in cell.errors_by_kind.items())
            notes.append(f"  {cell.column} c={cell.concurrency}: failed: {kinds}")
    return ["errors:", *notes] if notes else []
