"""``layerbench results``: the runs in the results database, one run's rungs with their spread,
two runs compared (:mod:`layerbench.cli.results_compare`), a JSON file (any ladder version)
added, and runs removed.

Rows of the database edited by hand into something unreadable are one-line warnings, and what
can be read is shown."""

import argparse
import os
from pathlib import Path
from typing import Any

from layerbench.cli import results_compare
from layerbench.cli.results_compare import warn
from layerbench.console.numbers import MAX_RUN_ID, whole
from layerbench.console.output import print_out
from layerbench.documents import read_json
from layerbench.errors import LayerbenchError
from layerbench.ladder.ladder_result import LadderResult
from layerbench.ladder.mix_lines import mix_rows
from layerbench.render.terminal_text import escaped
from layerbench.render.text_table import TERMINAL_WIDTH, format_table
from layerbench.report.stored_result import read_result
from layerbench.stats.spread import Spread
from layerbench.store.results_db import (
    PATH_VARIABLE,
    ResultsDatabase,
    StoredRun,
    default_path,
    fallback_path,
)

# The default application (--app), whose runs show no app column.
BARE_APP = "bare"


def add_parser(commands: Any) -> None:
    parser = commands.add_parser(
        "results",
        help="runs stored in the results database: list, show, compare, import, rm",
        description=f"Every ladder, mix and matrix run is stored in the results database: "
        f"{database_paths()}.",
    )
    parser.add_argument("--db", type=Path, help="the results database (the one above)")
    actions = parser.add_subparsers(dest="action", required=True, metavar="ACTION")
    listing = actions.add_parser(
        "list", help="every stored run: its server, settings, label; partial if interrupted"
    )
    listing.add_argument("--wide", action="store_true", help="every text whole, however wide")
    listing.set_defaults(handler=cmd_list)
    show = actions.add_parser("show", help="one run's rungs: median req/s, CV, 95 %% interval")
    show.add_argument("run", type=whole(1, MAX_RUN_ID))
    show.set_defaults(handler=cmd_show)
    compare = actions.add_parser(
        "compare",
        help="run B against run A, rung by rung: ratio, interval, significance",
        description="Run B against run A, rung by rung: the ratio of their median req/s, its "
        "95 % bootstrap interval, and whether it is significant (the interval leaves out 1). "
        "Conditions that differ between the runs (server, settings, services, machine) are "
        "named on stderr.",
        epilog=results_compare.EXIT_STATUSES,
    )
    results_compare.add_arguments(compare)
    compare.set_defaults(handler=_with_database(results_compare.cmd_compare))
    add = actions.add_parser("import", help="add a ladder, mix or matrix JSON file (any version)")
    add.add_argument("file", type=Path)
    add.add_argument("--label", help="a name for the run")
    add.set_defaults(handler=cmd_import)
    remove = actions.add_parser("rm", help="remove runs (all given, or none if one is unknown)")
    remove.add_argument("runs", type=whole(1, MAX_RUN_ID), nargs="+", metavar="RUN")
    remove.set_defaults(handler=cmd_rm)


def database_paths() -> str:
    """Where the database is looked for, and the one in use when the variable is set."""
    fallback = str(fallback_path()).replace(str(Path.home()), "~", 1)
    where = f"${PATH_VARIABLE}, else {fallback}"
    configured = os.environ.get(PATH_VARIABLE)
    return f"{where} (in use: {configured})" if configured else where


def _database(args: argparse.Namespace) -> ResultsDatabase:
    return ResultsDatabase(args.db or default_path())


def _with_database(command: Any) -> Any:
    def handler(args: argparse.Namespace) -> int:
        with _database(args) as database:
            code: int = command(args, database)
        return code

    return handler


def cmd_list(args: argparse.Namespace) -> int:
    with _database(args) as database:
        runs = database.runs()
    for run in runs:
        warn(run.problems)
    if not runs:
        print_out("no runs stored yet")
        return 0
    rows = [["run", "started (UTC)", "kind", "server", "settings", "what", "label", "rungs"]]
    for run in runs:
        measured = str(sum(1 for rung in run.rungs if rung.rates))
        rows.append(
            [
                str(run.id),
                (run.started_at or "")[:16].replace("T", " "),
                run.kind,
                run.server,
                run.settings or "defaults",
                run.description,
                run.label or "",
                measured + (" partial" if run.partial else ""),
            ]
        )
    # The texts shortened with …, the line under the width (a full line wraps in some terminals)
    fit = None if args.wide else ((3, 4, 5, 6), TERMINAL_WIDTH - 1)
    print_out(*format_table(rows, right_from=7, fit=fit))
    return 0


def cmd_show(args: argparse.Namespace) -> int:
    with _database(args) as database:
        run = database.run(args.run)
        mix = _mix(database, run)
    warn(run.problems)
    print_out(f"run {run.id}: {escaped(_heading(run))}")
    # The application of each rung, when the run recorded one other than the bare application
    # (the database's app column).
    apps = any(rung.app not in ("", BARE_APP) for rung in run.rungs)
    rows = [
        ["app"] * apps + ["rung", "status", "trials", "median req/s", "CV %", "95 % interval req/s"]
    ]
    for rung in run.rungs:
        named = [rung.app] * apps + [rung.rung_name if apps else rung.rung, rung.status]
        if not rung.rates:
            rows.append([*named, "0", "", "", ""])
            continue
        spread = Spread.of(list(rung.rates))
        interval = f"{spread.ci_low:,.0f} to {spread.ci_high:,.0f}" if spread.n > 1 else ""
        cv = f"{100 * spread.cv:.1f}" if spread.n > 1 else ""
        rows.append([*named, str(spread.n), f"{spread.median:,.0f}", cv, interval])
    print_out(*format_table(rows, right_from=2 + apps))
    if mix:
        print_out("", *format_table(mix, right_from=1))
    return 0


def _heading(run: StoredRun) -> str:
    parts = [run.kind, run.server + (f" {run.settings}" if run.settings else "")]
    parts += [run.description, f"started {run.started_at}"]
    if run.label:
        parts.append(f"label {run.label!r}")
    if run.partial:
        parts.append("partial (interrupted)")
    return ", ".join(parts)


def _mix(database: ResultsDatabase, run: StoredRun) -> list[list[str]] | None:
    """A mix's prediction and measurement as rows; none when unreadable (the run's problems
    say why)."""
    try:
        result = read_result(database.document(run.id))
    except LayerbenchError:
        return None
    mix = result.mix if isinstance(result, LadderResult) else None
    return mix_rows(mix) if mix else None


def cmd_import(args: argparse.Namespace) -> int:
    document = read_json(args.file, str(args.file))
    with _database(args) as database:
        run_id = database.add_run(document, args.label)
    print_out(f"stored {args.file} as run {run_id}")
    return 0


def cmd_rm(args: argparse.Namespace) -> int:
    runs = list(dict.fromkeys(args.runs))
    with _database(args) as database:
        database.remove(runs)
    print_out(*(f"removed run {run_id}" for run_id in runs))
    return 0
