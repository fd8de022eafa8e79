"""The seed's "cost of each layer" table, for the terminal."""

from layerbench.lab.results import LadderResult, RungResult, RungStatus

COLUMNS = ("rung", "server", "req/s", "vs above", "ms/req", "p50 ms", "p99 ms", "errors")
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
        return (rung.rung, rung.server, rung.status.value, "", "", "", "", "")
    return (
        rung.rung,
        rung.server,
        f"{rung.load.requests_per_s:,.0f}",
        "—" if change is None else f"{change:+.0%}".replace("%", " %"),
        _ms(rung.ms_per_request),
        _ms(rung.latency_ms("p50")),
        _ms(rung.latency_ms("p99")),
        str(rung.load.errors),
    )


def _ms(value: float | None) -> str:
    return "" if value is None else f"{value:.3f}"


def _line(cells: tuple[str, ...], widths: list[int]) -> str:
    padded = [
        cell.rjust(width) if name in RIGHT_ALIGNED else cell.ljust(width)
        for cell, width, name in zip(cells, widths, COLUMNS, strict=True)
    ]
    return "  ".join(padded).rstrip()
