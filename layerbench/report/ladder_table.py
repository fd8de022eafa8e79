"""The seed's "cost of each layer" table, for the terminal."""

from layerbench.lab.results import LadderResult, RungResult, RungStatus
from layerbench.roles import CLIENT_ROLE, SERVER_ROLE

MIB = 1024 * 1024

COLUMNS = (
    "rung",
    "server",
    "req/s",
    "vs above",
    "ms/req",
    "p50 ms",
    "p99 ms",
    "errors",
    "server CPU %",
    "client CPU %",
    "server PSS MiB",
)
RIGHT_ALIGNED = frozenset(COLUMNS[2:])


def format_ladder_table(result: LadderResult) -> str:
    rows = [
        _row(rung, change)
        for rung, change in zip(result.rungs, result.change_vs_above(), strict=True)
    ]
    widths = [max(len(row[i]) for row in [COLUMNS, *rows]) for i in range(len(COLUMNS))]
    lines = [_line(COLUMNS, widths)]
    lines += [_line(row, widths) for row in rows]
    notes = [
        f"  {rung.rung}: {rung.message}"
        for rung in result.rungs
        if rung.status is not RungStatus.OK
    ]
    if notes:
        lines += ["", "not measured:", *notes]
    return "\n".join(lines)


def _row(rung: RungResult, change: float | None) -> tuple[str, ...]:
    if rung.load is None:
        return (rung.rung, rung.server, rung.status.value, *[""] * (len(COLUMNS) - 3))
    return (
        rung.rung,
        rung.server,
        f"{rung.load.requests_per_s:,.0f}",
        "—" if change is None else f"{change:+.0%}".replace("%", " %"),
        _ms(rung.ms_per_request),
        _ms(rung.latency_ms("p50")),
        _ms(rung.latency_ms("p99")),
        str(rung.load.errors),
        *_costs(rung),
    )


def _costs(rung: RungResult) -> tuple[str, str, str]:
    """The server's and the client's CPU (% of a core) and the server's memory (PSS)."""
    if rung.usage is None:
        return "", "", ""
    server, client = rung.usage.roles.get(SERVER_ROLE), rung.usage.roles.get(CLIENT_ROLE)
    return (
        f"{server.cpu_percent:.0f}" if server else "",
        f"{client.cpu_percent:.0f}" if client else "",
        f"{server.pss_bytes / MIB:.1f}" if server else "",
    )


def _ms(value: float | None) -> str:
    return "" if value is None else f"{value:.3f}"


def _line(cells: tuple[str, ...], widths: list[int]) -> str:
    padded = [
        cell.rjust(width) if name in RIGHT_ALIGNED else cell.ljust(width)
        for cell, width, name in zip(cells, widths, COLUMNS, strict=True)
    ]
    return "  ".join(padded).rstrip()
