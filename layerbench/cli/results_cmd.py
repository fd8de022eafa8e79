"""``layerbench results``: the runs in the results database, one run's rungs with their spread,
two runs compared, and a JSON file (any ladder version) added."""

import argparse
import json
from pathlib import Path
from typing import Any

from layerbench.errors import ConfigError
from layerbench.lab.spread import Spread
from layerbench.report.mix_lines import mix_rows
from layerbench.report.text_table import TERMINAL_WIDTH, format_table
from layerbench.store.compare import compare_rungs
from layerbench.store.results_db import PATH_VARIABLE, ResultsDatabase, default_path


def add_parser(commands: Any) -> None:
    parser = commands.add_parser(
        "results",
        help="runs stored in the results database: list, show, compare, import",
        description="Every ladder run is stored in the results database "
        f"(${PATH_VARIABLE}, else {default_path()}).",
    )
    parser.add_argument("--db", type=Path, help="the results database (the default above)")
    actions = parser.add_subparsers(dest="action", required=True, metavar="ACTION")
    listing = actions.add_parser("list", help="every stored run")
    listing.add_argument("--wide", action="store_true", help="every text whole, however wide")
    listing.set_defaults(handler=cmd_list)
    show = actions.add_parser("show", help="one run's rungs: median req/s, CV, 95 %% interval")
    show.add_argument("run", type=int)
    show.set_defaults(handler=cmd_show)
    compare = actions.add_parser(
        "compare", help="run B against run A, rung by rung: ratio, interval, significance"
    )
    compare.add_argument("run_a", type=int)
    compare.add_argument("run_b", type=int)
    compare.set_defaults(handler=cmd_compare)
    add = actions.add_parser("import", help="add a ladder, mix or matrix JSON file (any version)")
    add.add_argument("file", type=Path)
    add.set_defaults(handler=cmd_import)


def _database(args: argparse.Namespace) -> ResultsDatabase:
    return ResultsDatabase(args.db or default_path())


def cmd_list(args: argparse.Namespace) -> int:
    with _database(args) as database:
        runs = database.runs()
    rows = [["run", "kind", "started", "what", "rungs measured"]]
    for run in runs:
        measured = sum(1 for rung in run.rungs if rung.rates)
        what = run.description + (" (interrupted)" if run.interrupted else "")
        rows.append([str(run.id), run.kind, run.started_at or "", what, str(measured)])
    # The texts shortened with …, the line under the width (a full line wraps in some terminals)
    fit = None if args.wide else ((3,), TERMINAL_WIDTH - 1)
    print("\n".join(format_table(rows, right_from=4, fit=fit)) if runs else "no runs stored yet")
    return 0


def cmd_show(args: argparse.Namespace) -> int:
    with _database(args) as database:
        run = database.run(args.run)
        mix = database.document(args.run).get("mix")
    print(f"run {run.id}: {run.kind}, {run.description}, started {run.started_at}")
    rows = [["rung", "status", "trials", "median req/s", "CV %", "95 % interval req/s"]]
    for rung in run.rungs:
        if not rung.rates:
            rows.append([rung.rung, rung.status, "0", "", "", ""])
            continue
        spread = Spread.of(list(rung.rates))
        interval = f"{spread.ci_low:,.0f} to {spread.ci_high:,.0f}" if spread.n > 1 else ""
        cv = f"{100 * spread.cv:.1f}" if spread.n > 1 else ""
        rows.append([rung.rung, rung.status, str(spread.n), f"{spread.median:,.0f}", cv, interval])
    print("\n".join(format_table(rows, right_from=2)))
    if mix:
        print()
        print("\n".join(format_table(mix_rows(mix), right_from=1)))
    return 0


def cmd_compare(args: argparse.Namespace) -> int:
    with _database(args) as database:
        a, b = database.run(args.run_a), database.run(args.run_b)
    comparisons = compare_rungs(a.rungs, b.rungs)
    if not comparisons:
        raise ConfigError(f"runs {a.id} and {b.id} have no measured rung in common")
    print(f"run {b.id} ({b.description}) against run {a.id} ({a.description}):")
    rows = [["rung", f"run {a.id} req/s", f"run {b.id} req/s", "ratio", "95 % interval", ""]]
    for item in comparisons:
        interval = (
            f"{item.ci_low:.3f} to {item.ci_high:.3f}"
            if item.ci_low is not None and item.ci_high is not None
            else "(one trial)"
        )
        verdict = ("faster" if item.ratio > 1 else "slower") if item.significant else "same"
        rows.append(
            [
                item.rung,
                f"{item.median_a:,.0f}",
                f"{item.median_b:,.0f}",
                f"{item.ratio:.3f}",
                interval,
                verdict,
            ]
        )
    print("\n".join(format_table(rows, right_from=1)))
    print(
        "significant: the 95 % interval of the ratio (bootstrap of both runs' trials) leaves out 1"
    )
    return 0


def cmd_import(args: argparse.Namespace) -> int:
    try:
        document = json.loads(args.file.read_text())
    except OSError as error:
        raise ConfigError(f"cannot read {args.file}: {error.strerror}") from None
    except ValueError as error:
        raise ConfigError(f"{args.file} is not JSON: {error}") from None
    with _database(args) as database:
        run_id = database.add_run(document)
    print(f"stored {args.file} as run {run_id}")
    return 0
