"""``layerbench results compare A B``: run B against run A, rung by rung, as a table or JSON,
with the conditions that differ between them named, and an exit status a script can use.

Two runs are made apart: their trials cannot be paired, and the machine's drift between them is
in their ratio. Each rung's interval is widened by the drift the runs show
(:mod:`layerbench.stats.apart`: the trials' spread within each run, the CPU speed probe between
and within them, at least 10 %), a difference within it is *inconclusive*, and the table ends
with the interleaved command that would decide."""

import argparse
import json
import sys

from layerbench.console.numbers import MAX_RUN_ID, whole
from layerbench.console.output import print_out
from layerbench.errors import ConfigError, LayerbenchError
from layerbench.ladder.ladder_result import LadderResult
from layerbench.render.terminal_text import escaped
from layerbench.render.text_table import format_table
from layerbench.report.run_conditions import differences, run_conditions
from layerbench.report.stored_result import read_result
from layerbench.stats.apart import MIN_DRIFT, compare_apart, drift_between
from layerbench.stats.comparison import RungComparison
from layerbench.stats.verdict import SAME_WITHIN, percent
from layerbench.store.results_db import ResultsDatabase, StoredRun
from layerbench.typed_documents import JsonObject

EXIT_SLOWER = 1
MATRIX = "matrix"
EXIT_STATUSES = (
    "exit status: 0 when no rung is slower beyond --fail-if-slower PCT (always 0 without it); "
    f"{EXIT_SLOWER} when a rung is decidedly slower by more than PCT % (its interval, widened "
    "by the drift between the runs, below 1), or on an error (a "
    "results database that cannot be read); 2 on a usage error (a run not stored or compared "
    "with itself, no rung measured in both runs, PCT out of range)."
)


def add_arguments(compare: argparse.ArgumentParser) -> None:
    compare.add_argument("run_a", type=whole(1, MAX_RUN_ID))
    compare.add_argument("run_b", type=whole(1, MAX_RUN_ID))
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
    if args.run_a == args.run_b:
        raise ConfigError(f"run {args.run_a} compared with itself: give two runs")
    a, b = database.run(args.run_a), database.run(args.run_b)
    warn(a.problems + b.problems)
    comparisons = compare_runs(database, a, b)
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
        print_out(*_table(a, b, comparisons), *_what_would_decide(a, b, comparisons))
    if slower:
        print(
            f"layerbench: run {b.id} is slower than run {a.id} by more than {threshold:g} % "
            f"(significantly) on: {', '.join(slower)}",
            file=sys.stderr,
        )
        return EXIT_SLOWER
    return 0


def compare_runs(database: ResultsDatabase, a: StoredRun, b: StoredRun) -> list[RungComparison]:
    """Every rung measured in both runs, in A's order (one with a trial of 0 req/s in A has no
    ratio), each against the drift between the runs."""
    speeds_a, speeds_b = _speeds(database, a), _speeds(database, b)
    in_b = {rung.rung: rung for rung in b.rungs if rung.rates}
    compared = []
    for rung in a.rungs:
        if not rung.rates or rung.rung not in in_b or min(rung.rates) <= 0:
            continue
        rates_a, rates_b = list(rung.rates), list(in_b[rung.rung].rates)
        drift = drift_between(rates_a, rates_b, speeds_a, speeds_b)
        compared.append(compare_apart(rung.rung, rates_a, rates_b, drift, SAME_WITHIN))
    return compared


def _speeds(database: ResultsDatabase, run: StoredRun) -> list[float]:
    """The CPU speed probe of every trial of the run that has one."""
    try:
        result = read_result(database.document(run.id))
    except LayerbenchError:  # an unreadable document, already warned about
        return []
    items = result.rungs if isinstance(result, LadderResult) else result.cells
    return [
        trial.cpu_speed for item in items for trial in item.trials if trial.cpu_speed is not None
    ]


def _what_would_decide(a: StoredRun, b: StoredRun, comparisons: list[RungComparison]) -> list[str]:
    """The command that measures both side by side, for the rungs left undecided."""
    undecided = [item.rung for item in comparisons if not item.judged.decided]
    if not undecided:
        return []
    return [
        f"undecided: {', '.join(undecided)}; runs made apart cannot be paired. To decide, "
        f"measure both side by side in one run (paired passes): {_interleaved(a, b, undecided)}"
    ]


def _interleaved(a: StoredRun, b: StoredRun, rungs: list[str]) -> str:
    if MATRIX in (a.kind, b.kind):
        # A matrix's rungs are its cells (``COLUMN c=N``), not rungs a ladder could be given.
        return (
            "the configurations that differ as columns of one layerbench matrix run (each "
            "column a server:setting=value, --repeats 10), or layerbench smoke APP --against "
            "REF when what differs is the code"
        )
    if a.server != b.server or a.settings != b.settings:
        return (
            f"layerbench matrix --servers {a.server},{b.server} --rung {rungs[0]} "
            "--repeats 10 (with each run's --set)"
        )
    return (
        f"layerbench ladder --rungs {','.join(rungs)} --apps OLD,NEW --repeats 10, or "
        "layerbench smoke APP --against REF (the same server and settings: what differs is "
        "the code, or nothing but the machine)"
    )


def warn(problems: tuple[str, ...] | list[str]) -> None:
    for problem in problems:
        print(f"layerbench: warning: {escaped(problem)}", file=sys.stderr)


def _differences(database: ResultsDatabase, a: StoredRun, b: StoredRun) -> list[str]:
    try:
        return differences(
            run_conditions(read_result(database.document(a.id))),
            run_conditions(read_result(database.document(b.id))),
        )
    except LayerbenchError:  # an unreadable document, already warned about
        return []


def _table(a: StoredRun, b: StoredRun, comparisons: list[RungComparison]) -> list[str]:
    rows = [["rung", f"run {a.id} req/s", f"run {b.id} req/s", "ratio", "B vs A, 95 % widened"]]
    for item in comparisons:
        rows.append(
            [
                item.rung,
                f"{item.median_a:,.0f}",
                f"{item.median_b:,.0f}",
                f"{item.ratio:.3f}",
                item.verdict,
            ]
        )
    return [
        f"run {b.id} ({_name(b)}) against run {a.id} ({_name(a)}):",
        *format_table(rows, right_from=1, left=(4,)),
        "the 95 % interval of the ratio of medians (bootstrap of both runs' trials), widened by "
        f"the drift between runs made apart (at least {percent(MIN_DRIFT, sign=False)}); the "
        f"same: within ±{percent(SAME_WITHIN, sign=False)}; a rung measured once in either run "
        "has no interval",
    ]


def _name(run: StoredRun) -> str:
    settings = f" {run.settings}" if run.settings else ""
    label = f", {run.label!r}" if run.label else ""
    return escaped(f"{run.server}{settings}, {run.description}{label}")


def _document(
    a: StoredRun,
    b: StoredRun,
    *,
    comparisons: list[RungComparison],
    differing: list[str],
    threshold: float | None,
    slower: list[str],
) -> JsonObject:
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
                "outcome": item.judged.word,
                "verdict": item.verdict,
            }
            for item in comparisons
        ],
        "fail_if_slower_percent": threshold,
        "slower_beyond_threshold": slower,
    }


def _run(run: StoredRun) -> JsonObject:
    return {
        "id": run.id,
        "label": run.label,
        "kind": run.kind,
        "server": run.server,
        "settings": run.settings,
        "description": run.description,
        "partial": run.partial,
    }
