"""The seed's "cost of each layer" table, for the terminal: per rung, req/s, the hit against
the rung above and against the top of the ladder (the product of the hits down to it), ms/req,
latency percentiles, errors, then the CPU (% of one core) and memory (PSS) of every role."""

from layerbench.lab.results import NOISY_CV, LadderResult, RungResult, RungStatus
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
    "CV %",
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
    lines += _noise_notes(result)
    return "\n".join(lines)


def _cv(rung: RungResult) -> str:
    spread = rung.spread
    if spread is None or spread.n < 2:
        return ""
    return f"{100 * spread.cv:.1f}" + (" !" if rung.noisy else "")


def _noise_notes(result: LadderResult) -> list[str]:
    """Each rung measured more than once: its spread, and why a noisy one may be."""
    spreads = [(rung, rung.spread) for rung in result.rungs if rung.status is RungStatus.OK]
    repeated = [(rung, spread) for rung, spread in spreads if spread and spread.n > 1]
    if not repeated:
        return []
    n = max(spread.n for _, spread in repeated)
    lines = [
        "",
        f"req/s is the median of {n} interleaved trials; CV % is their coefficient of variation; "
        f"! marks a rung over {100 * NOISY_CV:g} % (noisy)",
    ]
    governor = result.conditions.get("machine", {}).get("cpu_governor")
    for rung, spread in repeated:
        if not rung.noisy:
            continue
        causes = rung.noise_causes()
        if not causes and rung.cpu_speed_spread is not None:
            causes = [
                "no busy process seen, and the CPU's speed held "
                f"({100 * rung.cpu_speed_spread.cv:.1f} % CV of the probe)"
            ]
        elif not causes:
            causes = [
                "no busy process seen: the CPU's frequency"
                + (f" (governor {governor})" if governor else "")
                + "?"
            ]
        low, high = spread.ci_low, spread.ci_high
        lines.append(
            f"  {rung.rung}: noisy, 95 % interval {low:,.0f} to {high:,.0f} req/s; "
            + "; ".join(causes)
        )
    return lines


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
        _cv(rung),
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
