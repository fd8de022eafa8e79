"""The seed's "cost of each layer" table, for the terminal: per rung, req/s, the hit against
the rung above and against the top of the ladder (the product of the hits down to it), ms/req,
latency percentiles, errors, then the CPU (% of one core) and memory (PSS) of every role."""

from layerbench.lab.results import LadderResult, RungResult, RungStatus
from layerbench.roles import CACHE_ROLE, CLIENT_ROLE, DATABASE_ROLE, FRONT_ROLE, SERVER_ROLE

MIB = 1024 * 1024
ROLE_ORDER = (FRONT_ROLE, SERVER_ROLE, DATABASE_ROLE, CACHE_ROLE, CLIENT_ROLE)
LOAD_COLUMNS = (
    "rung",
    "server",
    "req/s",
    "vs above",
    "vs top",
    "ms/req",
    "p50 ms",
    "p99 ms",
    "p99.9 ms",
    "errors",
)
LEFT_ALIGNED = 2


def format_ladder_table(result: LadderResult) -> str:
    roles = [
        role
        for role in ROLE_ORDER
        if any(rung.usage and rung.usage.roles.get(role) for rung in result.rungs)
    ]
    header = [
        *LOAD_COLUMNS,
        *[f"{role} CPU %" for role in roles],
        *[f"{role} PSS MiB" for role in roles],
    ]
    tops = result.change_vs_top()
    rows = [
        _row(rung, change, top, roles)
        for rung, change, top in zip(result.rungs, result.change_vs_above(), tops, strict=True)
    ]
    widths = [max(len(row[i]) for row in [header, *rows]) for i in range(len(header))]
    lines = [_line(header, widths)]
    lines += [_line(row, widths) for row in rows]
    notes = [
        f"  {rung.rung}: {rung.message}"
        for rung in result.rungs
        if rung.status is not RungStatus.OK
    ]
    if notes:
        lines += ["", "not measured:", *notes]
    return "\n".join(lines)


def _row(rung: RungResult, change: float | None, top: float | None, roles: list[str]) -> list[str]:
    width = len(LOAD_COLUMNS) + 2 * len(roles)
    if rung.load is None:
        return [rung.rung, rung.server, rung.status.value, *[""] * (width - 3)]
    return [
        rung.rung,
        rung.server,
        f"{rung.load.requests_per_s:,.0f}",
        _percent(change),
        _percent(top),
        _ms(rung.ms_per_request),
        _ms(rung.latency_ms("p50")),
        _ms(rung.latency_ms("p99")),
        _ms(rung.latency_ms("p99_9")),
        str(rung.load.errors),
        *_costs(rung, roles),
    ]


def _costs(rung: RungResult, roles: list[str]) -> list[str]:
    """Each role's CPU (% of a core), then each role's memory (PSS)."""
    usages = [rung.usage.roles.get(role) if rung.usage else None for role in roles]
    cpu = [f"{usage.cpu_percent:.0f}" if usage else "" for usage in usages]
    pss = [f"{usage.pss_bytes / MIB:.1f}" if usage else "" for usage in usages]
    return cpu + pss


def _percent(change: float | None) -> str:
    return "—" if change is None else f"{change:+.0%}".replace("%", " %")


def _ms(value: float | None) -> str:
    return "" if value is None else f"{value:.3f}"


def _line(cells: list[str], widths: list[int]) -> str:
    padded = [
        cell.rjust(width) if i >= LEFT_ALIGNED else cell.ljust(width)
        for i, (cell, width) in enumerate(zip(cells, widths, strict=True))
    ]
    return "  ".join(padded).rstrip()
