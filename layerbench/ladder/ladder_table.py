"""The seed's "cost of each layer" table, for the terminal: per rung, req/s, the hit against
the rung above (on a ladder of several chains, the full one's, each rung is indented under the
one it adds a layer to, and ``wide`` names that one in the column ``above``) and against the
top of the ladder (the product of the hits down to it),
latency percentiles, errors, the spread of its trials, and the CPU (% of one core) of every
role. It fits a 120-column terminal; ``wide`` adds ms/req, p99.9 and every role's memory
(PSS)."""

import textwrap

from layerbench.ladder.ladder_result import LadderResult, RungResult
from layerbench.render.noise_notes import noise_notes
from layerbench.render.text_table import TERMINAL_WIDTH, Group, format_table
from layerbench.results.status import Status
from layerbench.roles import (
    CACHE_ROLE,
    CLIENT_ROLE,
    DATABASE_ROLE,
    FRONT_ROLE,
    SERVER_ROLE,
    UPSTREAM_ROLE,
)
from layerbench.stats.comparison import RungComparison
from layerbench.stats.verdict import Outcome

MIB = 1024 * 1024
ROLE_ORDER = (FRONT_ROLE, SERVER_ROLE, DATABASE_ROLE, CACHE_ROLE, UPSTREAM_ROLE, CLIENT_ROLE)
LOAD_COLUMNS = (
    "rung",
    "above",
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
COMPACT_LEAVES_OUT = ("ms/req", "p99.9 ms")
# Left out of a ladder of one chain (its rows say what each rung is against), and of the
# compact table (its indentation says it).
ONE_CHAIN_LEAVES_OUT = ("above",)
CHAINS_NOTE = (
    "vs above: against the rung each adds one layer to, the nearest row above it indented less"
)
# After a "vs above" whose verdict (of the pairs of trials measured in the same pass) is not
# a direction.
SAME_MARK = " ≈"
UNDECIDED_MARK = " ?"
MARKS_NOTE = (
    "vs above, of trials paired pass by pass: ≈ the same within ±5 %; ? inconclusive, more "
    "--repeats would decide"
)


def format_ladder_table(
    result: LadderResult, *, wide: bool = False, colour: bool | None = None
) -> str:
    roles = [
        role
        for role in ROLE_ORDER
        if any(rung.usage and rung.usage.roles.get(role) for rung in result.rungs)
    ]
    chains = not result.follows_the_rows()
    left_out = (() if wide else COMPACT_LEAVES_OUT) + (
        ONE_CHAIN_LEAVES_OUT if not (chains and wide) else ()
    )
    shown = [i for i, name in enumerate(LOAD_COLUMNS) if name not in left_out]
    left_aligned = sum(1 for i in shown if LOAD_COLUMNS[i] in ("rung", "above", "server"))
    # Several applications (ladder --apps): a first column names each row's.
    many = len(result.apps) > 1
    lead = 1 if many else 0
    groups = [Group(("CPU % of a core",), lead + len(shown), len(roles))] if roles else []
    if wide and roles:
        groups.append(Group(("PSS MiB",), lead + len(shown) + len(roles), len(roles)))
    header = ["app"] * lead + [LOAD_COLUMNS[i] for i in shown] + roles + (roles if wide else [])
    rows = [header]
    marked = False
    for rung, change, top, above, compared in zip(
        result.rungs,
        result.change_vs_above(),
        result.change_vs_top(),
        result.references(),
        result.compared_vs_above(),
        strict=True,
    ):
        cells = _row(rung, change, top, above)
        mark = _mark(compared)
        if mark and rung.load is not None:
            cells[LOAD_COLUMNS.index("vs above")] += mark
            marked = True
        if chains:
            cells[0] = " " * max(0, len(rung.chain) - 1) + rung.rung
        cpu, pss = _costs(rung, roles)
        rows.append([rung.app] * lead + [cells[i] for i in shown] + cpu + (pss if wide else []))
    # Wider than the terminal (many roles, a long server name): the server's name shortened;
    # --wide shows every column whole.
    fit = None if wide else ((header.index("server"),), TERMINAL_WIDTH)
    lines = format_table(rows, lead + left_aligned, groups=groups, colour=colour, fit=fit)
    name = result.label
    # A rung that failed after trials (errors among its answers, its server died) shows their
    # figures above, and why it failed here; one never measured only why.
    failed = [
        f"  {name(rung)}: {rung.message}"
        for rung in result.rungs
        if rung.status is Status.ERROR and rung.trials
    ]
    notes = [
        f"  {name(rung)}: {rung.message}"
        for rung in result.rungs
        if rung.status is not Status.OK and not (rung.status is Status.ERROR and rung.trials)
    ]
    if chains:
        lines += ["", CHAINS_NOTE]
    if marked:
        lines += [MARKS_NOTE] if chains else ["", MARKS_NOTE]
    if failed:
        lines += ["", "failed (its figures above):", *_wrapped(failed)]
    if notes:
        lines += ["", "not measured:", *_wrapped(notes)]
    measured = [(name(rung), rung) for rung in result.rungs if rung.status is Status.OK]
    lines += _wrapped(noise_notes(measured, result.measured_under, "rung"))
    return "\n".join(lines)


def _wrapped(lines: list[str]) -> list[str]:
    """Notes longer than the terminal, wrapped under their own indentation."""
    out = []
    for line in lines:
        if len(line) < TERMINAL_WIDTH:
            out.append(line)
            continue
        indent = " " * (len(line) - len(line.lstrip()) + 2)
        out += textwrap.wrap(line, TERMINAL_WIDTH - 1, subsequent_indent=indent)
    return out


def _cv(rung: RungResult) -> str:
    spread = rung.spread
    if spread is None or spread.n < 2:
        return ""
    return f"{100 * spread.cv:.1f}" + (" !" if rung.noisy else "")


def _row(
    rung: RungResult, change: float | None, top: float | None, above: RungResult | None
) -> list[str]:
    """Every figure of LOAD_COLUMNS."""
    against = above.rung if above else ""
    if rung.load is None:
        left = [rung.rung, against, rung.server, rung.status.value]
        return left + [""] * (len(LOAD_COLUMNS) - len(left))
    return [
        rung.rung,
        against,
        rung.server,
        f"{rung.requests_per_s or 0:,.0f}",
        _percent(change),
        _percent(top),
        _ms(rung.ms_per_request),
        _ms(rung.latency_ms("p50")),
        _ms(rung.latency_ms("p99")),
        _ms(rung.latency_ms("p99_9")),
        f"{rung.load.errors:,}",
        _cv(rung),
    ]


def _costs(rung: RungResult, roles: list[str]) -> tuple[list[str], list[str]]:
    """Each role's CPU (% of a core), and each role's memory (PSS, MiB)."""
    usages = [rung.usage.roles.get(role) if rung.usage else None for role in roles]
    cpu = [f"{usage.cpu_percent:.0f}" if usage else "" for usage in usages]
    pss = [f"{usage.pss_bytes / MIB:.1f}" if usage else "" for usage in usages]
    return cpu, pss


def _mark(compared: RungComparison | None) -> str:
    """What the paired verdict adds to a "vs above": nothing for a direction, or for one pass
    (nothing to judge it by)."""
    if compared is None or compared.trials < 2:
        return ""
    outcome = compared.judged.outcome
    if outcome is Outcome.SAME:
        return SAME_MARK
    return UNDECIDED_MARK if outcome is Outcome.INCONCLUSIVE else ""


def _percent(change: float | None) -> str:
    return "—" if change is None else f"{change:+.0%}".replace("%", " %")


def _ms(value: float | None) -> str:
    return "" if value is None else f"{value:.3f}"
