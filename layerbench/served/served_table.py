"""The served cost as text: per column (a server configuration), per role, its processes, its
instructions per request with their uncertainty and what the role did per second while idle
(estimated cycles too, when measured), and its system calls per request by call, most first;
the application's in-process count beside it, the anchor. A role whose figure is within its
uncertainty of zero is shown as 0 (:mod:`layerbench.served.time_driven`)."""

from collections.abc import Mapping

from layerbench.documents import mapping, number
from layerbench.render.terminal_text import escaped
from layerbench.render.text_table import GAP, LEAST_ROOM, TERMINAL_WIDTH, UNDER, labelled
from layerbench.render.wrapped_list import wrapped_list
from layerbench.served.served_cost import ServedCost
from layerbench.served.syscall_counts import TIMING_CALLS
from layerbench.typed_documents import JsonObject

Costs = dict[str, ServedCost | str]
# A call made fewer times than this per request is left out of the list (idle work's jitter).
SHOWN_CALLS_AT_LEAST = 0.05
TOTAL = "total"
# A role's instructions that moved from window to window with something other than its requests.
UNSTEADY = "unsteady"
# TIMING_CALLS (futex) and the calls that moved with the start: listed, marked, and left out
# of the syscalls/req column (:mod:`layerbench.served.start_dependent_calls`).
# The calls per second while idle named beside a role's calls, most first.
IDLE_CALLS_NAMED = 3
# A column's rows are indented under its label; their last cell (the calls, a note) is wrapped
# into what is left of the terminal's width, or, with less than LEAST_ROOM left, under its row.
INDENT = "  "


def syscall_line(
    calls: Mapping[str, float], timing: Mapping[str, list[float]] | None = None
) -> str:
    """``accept4 1.0, recvfrom 2.0, utimensat 4.5 to 5.0 (timing), …``: the calls made at least
    SHOWN_CALLS_AT_LEAST times per request, most first; a call that depends on timing
    (``timing``: each with its least and most figure over the starts; by default those in
    TIMING_CALLS) marked so, with its range."""
    timing = _timing_or_default(calls, timing)
    shown = sorted(
        ((name, count) for name, count in calls.items() if count >= SHOWN_CALLS_AT_LEAST),
        key=lambda item: (-item[1], item[0]),
    )
    return (
        ", ".join(
            f"{name} {_range(timing[name], count)} (timing)"
            if name in timing
            else f"{name} {count:.1f}"
            for name, count in shown
        )
        or "none"
    )


def _timing_or_default(
    calls: Mapping[str, float], timing: Mapping[str, list[float]] | None
) -> Mapping[str, list[float]]:
    if timing is not None:
        return timing
    return {name: [count, count] for name, count in calls.items() if name in TIMING_CALLS}


def _range(least_most: list[float], mean: float) -> str:
    """``4.5 to 5.0``; one figure when both read alike."""
    least, most = (f"{each:.1f}" for each in least_most)
    return f"{least} to {most}" if least != most else f"{mean:.1f}"


def counted_calls(
    calls: Mapping[str, float], timing: Mapping[str, list[float]] | None = None
) -> float:
    """The calls per request that do not depend on timing (``timing``: as in
    :func:`syscall_line`)."""
    timing = _timing_or_default(calls, timing)
    return sum(count for name, count in calls.items() if name not in timing)


def timing_calls(cost: ServedCost, role: str) -> Mapping[str, list[float]]:
    """Its calls that depend on timing: those its starts told apart; in a document of one
    start, TIMING_CALLS."""
    calls = cost.syscalls_per_request.get(role, {})
    if cost.syscalls_per_start:
        return cost.timing_calls.get(role, {})
    return _timing_or_default(calls, None)


Block = tuple[str, list[list[str]]]


def format_served_table(
    costs: dict[str, ServedCost | str], anchors: dict[str, float] | None = None
) -> str:
    """``costs``: per column label, its served cost, or why it has none; ``anchors``: per
    column, the application's own instructions per request counted in-process. Each column's
    label on a line of its own, its roles' rows under it; the calls wrapped to the terminal."""
    if not costs:
        return ""
    header, blocks = served_blocks(costs, anchors or {})
    return _render(header, blocks, served_caption(costs))


def served_blocks(costs: Costs, anchors: Mapping[str, float]) -> tuple[list[str], list[Block]]:
    """The table's header (from ``role``) and, per column, its label and its rows: per role,
    the total, the bursts and the anchor; a column with no figures has one cell, why."""
    first = _first_counted(costs)
    cycles = first is not None and bool(first.cycles_per_request)
    header = ["role", "procs", "instructions/req", "±/req", "idle instr/s"]
    header += ["est. cycles/req"] if cycles else []
    header += ["syscalls/req", "system calls per request"]
    filler = [""] if cycles else []
    blocks: list[Block] = []
    for label, cost in costs.items():
        if not isinstance(cost, ServedCost):
            blocks.append((label, [[cost]]))
            continue
        rows = [
            _row(role, cost, instructions, cycles)
            for role, instructions in cost.instructions_per_request.items()
        ]
        rows.append(_total_row(cost, cycles, _against_first(cost, first, costs)))
        if cost.burst_windows:
            rows.append(_bursts_row(cost, cycles))
        rows += [
            [UNSTEADY, "", "", "", "", *filler, "", f"{role}: {why}; not in the total"]
            for role, why in cost.unsteady_roles.items()
        ]
        anchor = anchors.get(label)
        if anchor is not None:
            rows.append(
                ["in-process", "", f"{anchor:,.0f}", "", "", *filler, "", "its application alone"]
            )
        blocks.append((label, rows))
    return header, blocks


def served_caption(costs: Costs) -> str:
    """How the first counted column was counted, one sentence."""
    return _caption(_first_counted(costs))


def _first_counted(costs: Costs) -> ServedCost | None:
    return next((cost for cost in costs.values() if isinstance(cost, ServedCost)), None)


def _uncertainty(within: float | None) -> str:
    return f"±{within:,.0f}" if within is not None else ""


def _row(role: str, cost: ServedCost, instructions: float, cycles: bool) -> list[str]:
    unsteady = role in cost.unsteady_roles
    row = [
        role,
        str(cost.processes.get(role, "")),
        UNSTEADY if unsteady else f"{cost.shown_instructions(role):,.0f}",
        "" if unsteady else _uncertainty(cost.instruction_uncertainty.get(role)),
        _rate(cost.idle_instructions_per_second.get(role)),
    ]
    row += [f"{cost.cycles_per_request.get(role, 0):,.0f}"] if cycles else []
    return [*row, f"{shown_calls(cost, role):.1f}", _calls_cell(cost, role)]


def shown_calls(cost: ServedCost, role: str) -> float:
    """Its calls per request that do not depend on timing; 0 when within their uncertainty of
    zero."""
    calls = counted_calls(cost.syscalls_per_request.get(role, {}), timing_calls(cost, role))
    within = cost.syscall_uncertainty.get(role)
    return 0.0 if within is not None and abs(calls) <= within else calls


def _calls_cell(cost: ServedCost, role: str) -> str:
    """Its calls per request (or, within their uncertainty of zero, that uncertainty), and the
    calls it made most per second while idle."""
    calls = cost.syscalls_per_request.get(role, {})
    timing = timing_calls(cost, role)
    within = cost.syscall_uncertainty.get(role)
    if within is not None and abs(counted_calls(calls, timing)) <= within:
        line = f"0 ± {within:.2f} per request"
    else:
        line = syscall_line(calls, timing)
    idle = cost.idle_syscalls_per_second.get(role, {})
    named = sorted(
        ((name, rate) for name, rate in idle.items() if rate >= SHOWN_CALLS_AT_LEAST),
        key=lambda item: (-item[1], item[0]),
    )[:IDLE_CALLS_NAMED]
    if named:
        line += "; idle: " + ", ".join(f"{name} {rate:.1f}/s" for name, rate in named)
    return line


def _rate(per_second: float | None) -> str:
    return f"{per_second:,.0f}" if per_second is not None else ""


def _total_row(cost: ServedCost, cycles: bool, against: str) -> list[str]:
    roles = list(cost.instructions_per_request)
    # An unsteady role is not in the total, nor its uncertainty.
    within = [
        cost.instruction_uncertainty.get(role) for role in roles if role not in cost.unsteady_roles
    ]
    rates = [cost.idle_instructions_per_second.get(role) for role in roles]
    row = [
        TOTAL,
        str(sum(cost.processes.values())),
        f"{cost.total_instructions:,.0f}",
        _uncertainty(sum(each for each in within if each is not None) if any(within) else None),
        _rate(sum(each for each in rates if each is not None) if any(rates) else None),
    ]
    row += [f"{cost.total_cycles or 0:,.0f}"] if cycles else []
    calls = sum(shown_calls(cost, role) for role in cost.syscalls_per_request)
    return [*row, f"{calls:.1f}", against]


def _bursts_row(cost: ServedCost, cycles: bool) -> list[str]:
    """The bursts beside the steady total: per request of every window counted, not in it."""
    filler = [""] if cycles else []
    return [
        "bursts",
        "",
        f"{cost.total_bursts:+,.0f}",
        "",
        "",
        *filler,
        "",
        f"{cost.burst_windows} of {cost.windows_counted} windows held a burst, not in the total",
    ]


def _against_first(cost: ServedCost, first: ServedCost | None, costs: Costs) -> str:
    """The total's ratio to the first counted one's (nothing for the first itself)."""
    if first is None or cost is first or not first.total_instructions:
        return ""
    label = next(label for label, each in costs.items() if each is first)
    return f"{cost.total_instructions / first.total_instructions:.2f}x {label}'s instructions"


def _caption(first: ServedCost | None) -> str:
    if first is None:
        return "Served cost per request: none counted"
    conditions = first.conditions
    if conditions is None:
        return "Served cost per request (how it was counted is not recorded)"
    short, long = conditions.windows_requests
    cache = conditions.cache_sizes
    cycles = (
        "; cycles estimated as L1 + 5 LL + 35 RAM, caches "
        + ", ".join(f"{level} {size}" for level, size in cache.items())
        if cache
        else ""
    )
    return (
        f"Served cost per request: windows of {short} and {long} requests at concurrency "
        f"{conditions.concurrency}, each as long, the difference of their quiet means (bursts "
        f"apart, averaged over every window's requests; work per second while idle counted in "
        f"a window with no request); a figure "
        f"within its uncertainty (±) of zero shown as 0; instructions by callgrind "
        f"(every process and thread, ASLR off, PYTHONHASHSEED={conditions.hash_seed}), "
        f"system calls by strace -f -c, {_timing_caption(conditions.syscall_starts)}{cycles}"
    )


def _timing_caption(starts: int) -> str:
    if starts == 1:
        return "futex (timing) not in their column"
    return (
        f"their mean over {starts} native starts, futex and the calls that moved with the start "
        "(timing, their range over the starts) not in their column"
    )


def _render(header: list[str], blocks: list[tuple[str, list[list[str]]]], caption: str) -> str:
    """The caption wrapped, then per column its label and its rows (or why it has none),
    indented: every cell but the last padded to its column, figures right-aligned; the last
    (the calls, a note) wrapped into what is left of the terminal's width, or under the row
    when too little is left."""
    rows = [row for _, block in blocks for row in block if len(row) > 1]
    last = len(header) - 1
    widths = [max(len(row[i]) for row in [header, *rows]) for i in range(last)]
    start = len(INDENT) + sum(widths) + len(GAP) * last
    room = TERMINAL_WIDTH - start
    under = room < LEAST_ROOM

    def lines(row: list[str]) -> list[str]:
        if len(row) == 1:  # why a column has no figures
            first, *more = wrapped_list(row[0], TERMINAL_WIDTH - len(UNDER))
            return [INDENT + first, *(UNDER + each for each in more)]
        cells = [
            row[i].ljust(widths[i]) if i == 0 else row[i].rjust(widths[i]) for i in range(last)
        ]
        head = INDENT + GAP.join(cells)
        if not row[last]:
            return [head.rstrip()]
        if under:
            text = wrapped_list(row[last], TERMINAL_WIDTH - len(UNDER))
            return [head.rstrip(), *(UNDER + each for each in text)]
        first, *more = wrapped_list(row[last], room)
        return [head + GAP + first, *(" " * start + each for each in more)]

    out = labelled("", caption) + lines(header)
    for label, block in blocks:
        out.append(escaped(label))
        for row in block:
            out += lines(row)
    return "\n".join(out)


def served_from_document(document: Mapping[str, object]) -> tuple[Costs, dict[str, float]]:
    """A run's ``served`` document (per label its cost, or ``{"error": why}``; the anchors)
    read back: what :func:`format_served_table` takes."""
    costs: Costs = {}
    for label, each in mapping(document.get("costs", {}), "served.costs").items():
        cost = mapping(each, f"served.costs.{label}")
        error = cost.get("error")
        costs[label] = str(error) if error is not None else ServedCost.from_dict(cost)
    anchors = {
        label: number(value, f"served.anchors.{label}")
        for label, value in mapping(document.get("anchors", {}), "served.anchors").items()
    }
    return costs, anchors


def served_document(costs: Costs, anchors: Mapping[str, float]) -> JsonObject:
    """What a run's result keeps of its served costs (see :func:`served_from_document`)."""
    return {
        "costs": {
            label: cost.to_dict() if isinstance(cost, ServedCost) else {"error": cost}
            for label, cost in costs.items()
        },
        "anchors": dict(anchors),
    }


def format_served_document(document: Mapping[str, object]) -> str:
    """The table of a run's ``served`` document; nothing without one."""
    return format_served_table(*served_from_document(document)) if document else ""
