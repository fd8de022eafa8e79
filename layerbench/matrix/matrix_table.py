"""The seed's deployment table for the terminal: one column per server configuration (its name
wrapped at its ``:``), one row per concurrency level, and in each cell req/s, ms/req and p99
in columns of their own, aligned from row to row; then what each role cost. A matrix too wide
for a 120-column terminal turns around (a row per configuration, a column per level), or,
still too wide, is printed in blocks of columns; ``wide`` keeps the seed's layout whole and
adds each role's CPU % to the costs."""

import textwrap
from collections.abc import Callable

from layerbench.matrix.matrix_result import Cell, MatrixResult
from layerbench.render.noise_notes import noise_notes
from layerbench.render.text_table import TERMINAL_WIDTH, Group, format_table
from layerbench.results.status import Status
from layerbench.roles import CLIENT_ROLE, FRONT_ROLE, SERVER_ROLE, UPSTREAM_ROLE

MIB = 1024 * 1024
ROLE_ORDER = (FRONT_ROLE, SERVER_ROLE, UPSTREAM_ROLE, CLIENT_ROLE)
FIGURES = ("req/s", "ms/req", "p99 ms")
LABEL_WIDTH = 20
LEGEND = (
    "ms/req: the mean across concurrent requests (ab's); E n: n failed or non-2xx requests; "
    "*: the client was the bottleneck"
)

# A cell of the grid: the cell at (column label, row), or None where nothing ran.
Lookup = Callable[[str, int], Cell | None]


def format_matrix_table(
    result: MatrixResult, *, wide: bool = False, colour: bool | None = None
) -> str:
    lines = _grid(result, wide, colour)
    lines += ["", *textwrap.wrap(LEGEND, TERMINAL_WIDTH - 1, subsequent_indent="  ")]
    costs = _costs_table(result, wide, colour)
    if costs:
        lines += ["", *costs]
    notes = _notes(result)
    if notes:
        lines += ["", *notes]
    measured = [
        (f"{cell.column} c={cell.concurrency}", cell)
        for cell in result.cells
        if cell.status is Status.OK
    ]
    noise = noise_notes(measured, result.measured_under, "cell")
    lines += [line for note in noise for line in _wrap(note)]
    return "\n".join(lines)


def _wrap(line: str) -> list[str]:
    indent = " " * (len(line) - len(line.lstrip()) + 2)
    return textwrap.wrap(line, TERMINAL_WIDTH - 1, subsequent_indent=indent) or [line]


def _grid(result: MatrixResult, wide: bool, colour: bool | None) -> list[str]:
    labels = [column.label for column in result.columns]
    levels = sorted({(cell.row, cell.concurrency) for cell in result.cells})
    rungs = {column.label: column.rung for column in result.columns}
    named = len(set(rungs.values())) > 1  # say each column's rung only when they differ
    seed = _by_level(result, labels, levels, rungs if named else {}, colour)
    if wide or _width(seed) < TERMINAL_WIDTH:
        return seed
    turned = _by_column(result, labels, levels, rungs if named else {}, colour)
    if _width(turned) < TERMINAL_WIDTH:
        return turned
    blocks: list[list[str]] = []
    for label in labels:
        if blocks:
            wider = _by_level(result, [*blocks[-1], label], levels, rungs if named else {}, colour)
            if _width(wider) < TERMINAL_WIDTH:
                blocks[-1].append(label)
                continue
        blocks.append([label])
    lines: list[str] = []
    for block in blocks:
        lines += ([""] if lines else []) + _by_level(
            result, block, levels, rungs if named else {}, colour
        )
    return lines


def _width(lines: list[str]) -> int:
    return max((len(_plain(line)) for line in lines), default=0)


def _plain(line: str) -> str:
    while "\033[" in line:
        start = line.index("\033[")
        line = line[:start] + line[line.index("m", start) + 1 :]
    return line


def _by_level(
    result: MatrixResult,
    labels: list[str],
    levels: list[tuple[int, int]],
    rungs: dict[str, str],
    colour: bool | None,
) -> list[str]:
    """The seed's layout: a row per level, a group of figures per configuration."""
    flagged = {label: any(_flags(result.cell(label, row)) for row, _ in levels) for label in labels}
    header, groups = ["c"], []
    for label in labels:
        lines = _wrap_label(label) + ((f"({rungs[label]})",) if rungs else ())
        groups.append(Group(lines, len(header), len(FIGURES) + flagged[label]))
        header += [*FIGURES, *[""] * flagged[label]]
    rows = [header]
    for row, c in levels:
        cells = [str(c)]
        for label in labels:
            cells += _figures(result.cell(label, row), flagged[label])
        rows.append(cells)
    return format_table(
        rows, 1, left=_flag_columns(groups, flagged, labels), groups=groups, colour=colour
    )


def _by_column(
    result: MatrixResult,
    labels: list[str],
    levels: list[tuple[int, int]],
    rungs: dict[str, str],
    colour: bool | None,
) -> list[str]:
    """Turned around: a row per configuration, a group of figures per level."""
    flagged = {row: any(_flags(result.cell(label, row)) for label in labels) for row, _ in levels}
    header, groups = ["server"], []
    for row, c in levels:
        groups.append(Group((f"c={c}",), len(header), len(FIGURES) + flagged[row]))
        header += [*FIGURES, *[""] * flagged[row]]
    rows = [header]
    for label in labels:
        cells = [label + (f" ({rungs[label]})" if rungs else "")]
        for row, _ in levels:
            cells += _figures(result.cell(label, row), flagged[row])
        rows.append(cells)
    flags = {g.first + len(FIGURES) for g in groups if g.count > len(FIGURES)}
    return format_table(rows, 1, left=flags, groups=groups, colour=colour)


def _flag_columns(groups: list[Group], flagged: dict[str, bool], labels: list[str]) -> set[int]:
    return {
        g.first + len(FIGURES) for g, label in zip(groups, labels, strict=True) if flagged[label]
    }


def _wrap_label(label: str) -> tuple[str, ...]:
    """A configuration's name on lines of at most LABEL_WIDTH, broken after its ``:``."""
    lines: list[str] = []
    for part in label.replace(":", ":\n").splitlines():
        if lines and len(lines[-1]) + len(part) <= LABEL_WIDTH:
            lines[-1] += part
        else:
            lines.append(part)
    return tuple(lines)


def _figures(cell: Cell | None, flagged: bool) -> list[str]:
    """A cell's req/s, ms/req and p99, and its marks; a cell not measured says so."""
    blank = [""] * (len(FIGURES) + flagged)
    if cell is None:
        return blank
    if cell.status is not Status.OK or cell.load is None:
        return [cell.status.value, *blank[1:]]
    figures = [
        f"{cell.requests_per_s or 0:,.0f}",
        f"{cell.ms_per_request or 0:.2f}",
        f"{cell.latency_ms('p99') or 0:.1f}",
    ]
    return figures + ([_flags(cell)] if flagged else [])


def _flags(cell: Cell | None) -> str:
    if cell is None or cell.load is None:
        return ""
    spread = cell.spread
    marks = []
    if spread is not None and spread.n > 1:
        marks.append(f"CV {100 * spread.cv:.1f} %" + (" !" if cell.noisy else ""))
    if cell.load.errors:
        marks.append(f"E {cell.load.errors:,}")
    return " ".join(marks + (["*"] if cell.client_bound else []))


def _costs_table(result: MatrixResult, wide: bool, colour: bool | None) -> list[str]:
    roles = [
        role
        for role in ROLE_ORDER
        if any(cell.usage and role in cell.usage.roles for cell in result.cells)
    ]
    measured = [cell for cell in result.cells if cell.usage is not None and cell.load is not None]
    if not roles or not measured:
        return []
    figures = (["CPU %"] if wide else []) + ["CPU s/1k", "PSS MiB"]
    names = {"CPU %": "CPU % of a core", "CPU s/1k": "CPU s per 1k req", "PSS MiB": "PSS MiB"}
    header = ["server", "c", "req/s"]
    groups = []
    for figure in figures:
        groups.append(Group((names[figure],), len(header), len(roles)))
        header += roles
    rows = [header]
    for cell in measured:
        assert cell.usage is not None and cell.load is not None
        values: dict[str, list[str]] = {figure: [] for figure in figures}
        for role in roles:
            usage = cell.usage.roles.get(role)
            per_1000 = usage.cpu_s_per_1000(cell.load.requests_completed) if usage else None
            values.setdefault("CPU %", []).append(f"{usage.cpu_percent:.0f}" if usage else "")
            values["CPU s/1k"].append("" if per_1000 is None else f"{per_1000:.3f}")
            values["PSS MiB"].append(f"{usage.pss_bytes / MIB:.1f}" if usage else "")
        row = [cell.column, str(cell.concurrency), f"{cell.requests_per_s or 0:,.0f}"]
        rows.append(row + [value for figure in figures for value in values[figure]])
    own = max(cell.usage.sampler_cpu_percent for cell in measured if cell.usage)
    return [
        "what each role cost:",
        *format_table(rows, right_from=1, groups=groups, colour=colour),
        f"the sampler's own cost: at most {own:.1f} % of a core",
    ]


def _notes(result: MatrixResult) -> list[str]:
    notes = []
    for cell in result.cells:
        if cell.status is not Status.OK:
            notes.append(
                f"  {cell.column} c={cell.concurrency}: {cell.status.value}: {cell.message}"
            )
        elif cell.errors_by_kind:
            kinds = ", ".join(f"{kind} {count:,}" for kind, count in cell.errors_by_kind.items())
            notes.append(f"  {cell.column} c={cell.concurrency}: failed: {kinds}")
    wrapped = [
        line
        for note in notes
        for line in textwrap.wrap(note, TERMINAL_WIDTH - 1, subsequent_indent="    ")
    ]
    return ["errors:", *wrapped] if notes else []
