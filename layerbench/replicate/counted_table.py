"""A published experiment's claims about what a request costs, judged on served instructions
(:mod:`layerbench.replicate.count_claims`) beside req/s: per figure, its counts; per claim, both
verdicts and which figure decided it."""

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from layerbench.render.text_table import format_table, labelled
from layerbench.replicate.count_claims import (
    DWARF,
    MIN_SPREAD,
    CountedClaim,
    SideCounts,
    deciding_figure,
    judge_counts,
    spread,
)
from layerbench.replicate.seed_figures import Claim, Direction
from layerbench.stats.claim_verdict import ClaimVerdict
from layerbench.stats.verdict import percent

# A count's error in the figures' table, at most this long.
ERROR_WIDTH = 72


@dataclass(frozen=True)
class CountedFigure:
    """A post's figure as counted here: ``what`` was counted (its served cost, or its first
    requests after a start) and its counts (None: not counted in this run)."""

    name: str
    what: str
    counts: SideCounts | None


def counted_figure_table(figures: list[CountedFigure], colour: bool | None = None) -> list[str]:
    """Per figure: what was counted, each count's instructions per request, their spread, and
    the system calls per request of each count."""
    rows = [["post's configuration", "counted", "instructions/req", "spread", "syscalls/req"]]
    for figure in figures:
        counts = figure.counts
        if counts is None or not counts.instructions:
            why = "; ".join(dict.fromkeys(map(_short, counts.errors))) if counts else ""
            rows.append([figure.name, figure.what, "", "", why or "not counted in this run"])
            continue
        rows.append(
            [
                figure.name,
                figure.what,
                ", ".join(f"{n:,.0f}" for n in counts.instructions),
                percent(spread(counts.instructions), sign=False)
                if len(counts.instructions) > 1
                else "",
                ", ".join(f"{n:.1f}" for n in counts.syscalls),
            ]
        )
    caption = (
        "served per request, each count on fresh starts of the server (instructions by "
        "callgrind, every process; system calls by strace, futex and the calls that moved with the "
        "start left out); a spread is the counts' range over "
        f"their median, at least {percent(MIN_SPREAD, sign=False)}"
    )
    return [*labelled("", caption), *format_table(rows, 2, wrap_last=True, colour=colour)]


def _short(error: str) -> str:
    """An error's first line, at most ERROR_WIDTH characters (a server's log tail follows)."""
    line = error.splitlines()[0] if error else ""
    line = line.split(" (last: ")[0].split("; last lines of its log")[0]
    return line if len(line) <= ERROR_WIDTH else line[: ERROR_WIDTH - 1] + "…"


def counted_claims(
    claims: list[tuple[Claim, float | None]],
    side: Callable[[str], SideCounts | None],
) -> list[CountedClaim | None]:
    """Each claim (with its claimed ratio) judged on the counts of its two figures (``side`` of
    a figure's name); None where either side has no count."""
    judged: list[CountedClaim | None] = []
    for claim, claimed in claims:
        figure, reference = side(claim.figure), side(claim.reference)
        if not (figure and figure.instructions and reference and reference.instructions):
            judged.append(None)
            continue
        judged.append(
            judge_counts(
                claimed,
                claim.direction is Direction.SAME,
                figure.instructions,
                reference.instructions,
            )
        )
    return judged


def counted_claim_lines(
    claims: list[Claim],
    rates: list[tuple[str, ClaimVerdict | None]],
    counted: list[CountedClaim | None],
) -> list[str]:
    """Per claim, its words; its verdict in req/s (``rates``: the line, the verdict) and in
    instructions; which of them decided it."""
    lines = labelled(
        "",
        "the post's conclusions, in req/s and in served instructions per request (a request "
        "that costs fewer is the faster: the reference's instructions over the figure's; "
        f"decided when the difference stands out of {DWARF:g} times the two spreads added):",
    )
    for claim, (rate_line, rate_verdict), count in zip(claims, rates, counted, strict=True):
        lines += labelled("  ", claim.words, "    ")
        lines += labelled("    req/s:        ", rate_line)
        if count is None:
            lines += labelled("    instructions: ", "not counted in this run (the counts above)")
        else:
            figure = ", ".join(f"{n:,.0f}" for n in count.figure_counts)
            reference = ", ".join(f"{n:,.0f}" for n in count.reference_counts)
            lines += labelled(
                "    instructions: ",
                f"{claim.reference} / {claim.figure} = {count.verdict.ratio:.2f} "
                f"({reference} against {figure}), {count.text()}",
            )
        decided = deciding_figure(count.verdict if count else None, rate_verdict)
        lines += labelled("    decided by:   ", decided)
    return lines


def format_first_requests(served: Mapping[str, Any]) -> str:
    """A matrix's ``--first-requests`` counts (its ``served`` document's ``first_requests``):
    per column and count, the instructions and system calls per request of the first N
    requests after a start, and the processes counted; nothing without."""
    first = served.get("first_requests")
    if not first:
        return ""
    requests = int(first["requests"])
    # Runs stored before the first requests had a concurrency of their own were counted at 1.
    first_concurrency = int(first.get("concurrency", 1))
    rows = [["column", "count", "run", "instructions/req", "syscalls/req", "processes", ""]]
    seconds = []
    for label, counts in first["counts"].items():
        for number, count in enumerate(counts, 1):
            name = label if number == 1 else ""
            rows.append([name, str(number), "first", *_first_row(count)])
            second = count.get("second_run")
            if second is not None:
                rows.append(["", "", "second", *_first_row(second)])
                if "error" not in second:
                    seconds.append(second)
    caption = (
        f"The first {requests:,} requests after a fresh start, per request: concurrency "
        f"{first_concurrency}, no warm-up, every process of the server counted (those it started "
        "meanwhile included); "
        "instructions by callgrind, system calls by strace -f -c"
    )
    if seconds:
        concurrency = seconds[0]["concurrency"]
        settled = ", ".join(str(each["settle_requests"]) for each in seconds)
        windows = ", ".join(
            f"{each['windows']} ({each.get('windows_left_out', 0)} left out)" for each in seconds
        )
        caption += (
            f". Then, on the same start, its second run: requests at c={concurrency} in batches "
            f"until its processes stopped growing in number ({settled} requests), the server "
            "left quiet, then "
            f"windows of {requests:,} requests at c=1 until two were within 2 % of the least "
            f"(windows: {windows}; one further over held a child's start or import), every "
            "process counted: the quiet windows' mean"
        )
    return "\n".join([*labelled("", caption), *format_table(rows, 2, wrap_last=True)])


def _first_row(count: Mapping[str, Any]) -> list[str]:
    """A first (or second) run's cells: its instructions, system calls and processes; or, not
    counted, why (in the last column, after them)."""
    if "error" in count:
        return ["", "", "", _short(str(count["error"]))]
    return [
        f"{count['instructions_per_request']:,.0f}",
        f"{sum(count['syscalls_per_request'].values()):.1f}",
        str(count["processes"]),
        "",
    ]


def format_settled(served: Mapping[str, Any]) -> str:
    """A matrix's ``--settled`` counts (its ``served`` document's ``settled``): per column and
    count, the instructions and system calls per request and the processes counted; nothing
    without."""
    settled = served.get("settled")
    if not settled:
        return ""
    rows = [["column", "count", "instructions/req", "syscalls/req", "processes", "settling"]]
    for label, counts in settled["counts"].items():
        for number, count in enumerate(counts, 1):
            name = label if number == 1 else ""
            cells = _first_row(count)
            settling = f"{count['settle_requests']:,} requests" if "error" not in count else ""
            rows.append([name, str(number), *cells[:3], settling or cells[3]])
    concurrency, requests = settled["concurrency"], settled["requests"]
    caption = (
        f"Served, settled, per request: on a fresh start, requests at c={concurrency} in "
        "batches until its processes stopped growing in number (settling), the server left "
        "quiet, then windows "
        f"of {requests:,} requests at c=1 until two were within 2 % of the least (one further "
        "over held a child's start or import, left out), every process of the server counted "
        "(those started or ended meanwhile included): the quiet windows' mean; instructions by "
        "callgrind, system calls by strace -f -c"
    )
    return "\n".join([*labelled("", caption), *format_table(rows, 2, wrap_last=True)])
