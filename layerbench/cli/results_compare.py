"""``layerbench results compare A B``: run B against run A, rung by rung, as a table or JSON,
with the conditions that differ between them named, and an exit status a script can use."""

import argparse
import json
import sys
from typing import Any

from layerbench.cli.output import print_out
from layerbench.errors import ConfigError, LayerbenchError
from layerbench.report.text_table import format_table
from layerbench.results.run_conditions import differences, run_conditions
from layerbench.stats.comparison import RungComparison, compare_rungs
from layerbench.store.results_db import ResultsDatabase, StoredRun

EXIT_SLOWER = 1
EXIT_STATUSES = (
    "exit status: 0 when no rung is slower beyond --fail-if-slower PCT (always 0 without it); "
    f"{EXIT_SLOWER} when a rung is significantly slower by more than PCT %, or on an error (a "
    "results database that cannot be read); 2 on a usage error (a run not stored, no rung "
    "measured in both runs, PCT out of range)."
)


def add_arguments(compare: argparse.ArgumentParser) -> None:
    compare.add_argument("run_a", type=int)
    compare.add_argument("run_b", type=int)
    compare.add_argument("--json", action="store_true", help="the comparison as JSON on stdout")
    compare.add_argument(
        "--fail-if-slower",
        type=float,
        metavar="PCT",
        help=f"exit {EXIT_SLOWER} when a rung of B is significantly slower than A's by more "
        "than PCT %% (its ratio below 1 - PCT/100)",
    )


def cmd_compare(args: argparse.Namespace, database: ResultsDatabase) -> int:
    threshold = args.fail_if_slower
    if threshold is not None and not 0 <= threshold < 100:
        raise ConfigError(f"--fail-if-slower takes a percentage, 0 to 100, not {threshold:g}")
    a, b = database.run(args.run_a), database.run(args.run_b)
    warn(a.problems + b.problems)
    comparisons = compare_rungs(a.rungs, b.rungs)
    if not comparisons:
        raise ConfigError(f"runs {a.id} and {b.id} have no measured rung in common")
    differing = _differences(database, a, b)
    if differing:
        warn(
            [
                f"runs {a.id} and {b.id} were measured under different conditions, "
                f"{'; '.join(differing)} (A vs B)"
            ]
        )
    slower = [c.rung for c in comparisons if threshold is not None and c.slower_beyond(threshold)]
    if args.json:
        print_out(
            json.dumps(
                _document(
                    a,
                    b,
                    comparisons=comparisons,
                    differing=differing,
                    threshold=threshold,
                    slower=slower,
                ),
                indent=2,
            )
        )
    else:
        print_out(*_table(a, b, comparisons))
    if slower:
        print(
            f"layerbench: run {b.id} is slower than run {a.id} by more than {threshold:g} % "
            f"(significantly) on: {', '.join(slower)}",
            file=sys.stderr,
        )
        return EXIT_SLOWER
    return 0


def warn(problems: tuple[str, ...] | list[str]) -> None:
    for problem in problems:
        print(f"layerbench: warning: {problem}", file=sys.stderr)


def _differences(database: ResultsDatabase, a: StoredRun, b: StoredRun) -> list[str]:
    try:
        return differences(
            run_conditions(database.result(a.id)), run_conditions(database.result(b.id))
        )
    except LayerbenchError:  # an unreadable document, already warned about
        return []


def _table(a: StoredRun, b: StoredRun, comparisons: list[RungComparison]) -> list[str]:
    rows = [["rung", f"run {a.id} req/s", f"run {b.id} req/s", "ratio", "95 % interval", ""]]
    for item in comparisons:
        interval = (
            f"{item.ci_low:.3f} to {item.ci_high:.3f}"
            if item.ci_low is not None and item.ci_high is not None
            else ""
        )
        rows.append(
            [
                item.rung,
                f"{item.median_a:,.0f}",
                f"{item.median_b:,.0f}",
                f"{item.ratio:.3f}",
                interval,
                item.verdict,
            ]
        )
    return [
        f"run {b.id} ({_name(b)}) against run {a.id} ({_name(a)}):",
        *format_table(rows, right_from=1),
        "significant: the 95 % interval of the ratio (bootstrap of both runs' trials) leaves "
        "out 1; a rung measured once in either run has no interval",
    ]


def _name(run: StoredRun) -> str:
    settings = f" {run.settings}" if run.settings else ""
    label = f", {run.label!r}" if run.label else ""
    return f"{run.server}{settings}, {run.description}{label}"


def _document(
    a: StoredRun,
    b: StoredRun,
    *,
    comparisons: list[RungComparison],
    differing: list[str],
    threshold: float | None,
    slower: list[str],
) -> dict[str, Any]:
    return {
        "run_a": _run(a),
        "run_b": _run(b),
        "different_conditions": differing,
        "rungs": [
            {
                "rung": item.rung,
                "median_a_requests_per_s": item.median_a,
                "median_b_requests_per_s": item.median_b,
                "ratio": item.ratio,
                "ci95_low": item.ci_low,
                "ci95_high": item.ci_high,
                "trials": item.trials,
                "significant": item.significant,
                "verdict": item.verdict,
            }
            for item in comparisons
        ],
        "fail_if_slower_percent": threshold,
        "slower_beyond_threshold": slower,
    }


def _run(run: StoredRun) -> dict[str, Any]:
    return {
        "id": run.id,
        "label": run.label,
        "kind": run.kind,
        "server": run.server,
        "settings": run.settings,
        "description": run.description,
        "partial": run.partial,
    }
