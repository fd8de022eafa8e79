"""``layerbench matrix``: server configurations x concurrency levels, the deployment
table, and what every process cost."""

import argparse
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from layerbench.console.numbers import MAX_CONCURRENCY, MAX_REPEATS, seconds, whole
from layerbench.console.profile_option import add_profile_arguments, check_profile_run
from layerbench.console.topology_option import add_topology_argument, topology_of, with_hosts
from layerbench.console.until_decided import (
    add_until_decided_arguments,
    looks_of,
    passes_until_decided,
    undecided,
)
from layerbench.lab.publish import ResultsFile, publish
from layerbench.matrix.cell_profiles import cell_profile_tables
from layerbench.matrix.matrix_options import (
    MATRIX_RUNG_NAMES,
    Column,
    MatrixOptions,
    parse_concurrency,
)
from layerbench.matrix.matrix_progress import MatrixProgress
from layerbench.matrix.matrix_result import MatrixResult, matrix_memory_items
from layerbench.matrix.matrix_run import run_matrix
from layerbench.matrix.matrix_served_tables import matrix_served_tables
from layerbench.matrix.matrix_table import format_matrix_table
from layerbench.matrix.matrix_verdicts import column_verdict_lines
from layerbench.matrix.seed_table import (
    RunColumn,
    RunShape,
    check_seed,
    format_seed_table,
    matrix_claim_verdicts,
)
from layerbench.render.worker_memory import format_memory_table
from layerbench.replicate.count_claims import MAX_SERVED_COUNTS
from layerbench.replicate.published import MATRIX
from layerbench.replicate.published_option import add_published_argument, published_names
from layerbench.rungs.applications import APPLICATIONS, BARE
from layerbench.served.measure_option import add_measure_argument
from layerbench.served.served_windows import MAX_REQUESTS
from layerbench.servers.adapters import ADAPTERS
from layerbench.servers.server_settings import add_assignments

EXIT_CELL_FAILED = 1


def add_parser(commands: Any) -> None:
    servers = "\n".join(f"  {name:<18} {adapter.summary}" for name, adapter in ADAPTERS.items())
    parser = commands.add_parser(
        "matrix",
        help="compare server configurations across concurrency levels",
        description="Run one rung under several server configurations at several concurrency "
        "levels: req/s, ms/req and p99 per cell, and the CPU and memory of every process.",
        epilog="servers:\n" + servers + "\n\nA server may carry its own settings: "
        "NAME:KEY=VALUE[:KEY=VALUE…], e.g. mod_wsgi-daemon:processes=2:threads=10; and its "
        "application, app=NAME (" + ", ".join(APPLICATIONS) + "), e.g. "
        "mod_wsgi-embedded:app=django.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--servers", required=True, help="comma-separated server configurations (columns)"
    )
    parser.add_argument(
        "-c", "--concurrency", default="10,100,200,500", help="levels (10,100,200,500)"
    )
    parser.add_argument(
        "--app",
        default=BARE.name,
        metavar="NAME",
        help=f"the application of every column that names none: {', '.join(APPLICATIONS)} "
        f"({BARE.name})",
    )
    parser.add_argument(
        "--rung", default="string", choices=MATRIX_RUNG_NAMES, help="the rung measured (string)"
    )
    parser.add_argument(
        "--set",
        action="append",
        default=[],
        metavar="SERVER.KEY=VALUE",
        help="a setting for every column (repeatable), e.g. apache.max_request_workers=500",
    )
    parser.add_argument(
        "-d", "--duration", type=seconds(), default=5.0, help="seconds measured per cell (5)"
    )
    parser.add_argument(
        "--warmup", type=seconds(zero=True), default=1.0, help="seconds of warm-up (1)"
    )
    parser.add_argument(
        "--rerun-warmup",
        type=seconds(zero=True),
        metavar="S",
        help="seconds of warm-up before a level that repeats an earlier level's concurrency (a "
        "second run, once the processes the first started are warm), instead of --warmup",
    )
    parser.add_argument(
        "--repeats",
        type=whole(1, MAX_REPEATS),
        default=3,
        help="passes over the columns, interleaved; each cell shows its median (3)",
    )
    parser.add_argument(
        "--no-keep-alive", action="store_true", help="a new connection for every request"
    )
    parser.add_argument("--no-pin", action="store_true", help="do not pin client and servers")
    add_topology_argument(parser)
    parser.add_argument(
        "--json", type=Path, default=Path("matrix.json"), help="results file (matrix.json)"
    )
    parser.add_argument("--label", help="a name for the run in the results database")
    parser.add_argument("--wide", action="store_true", help="the table with every column")
    add_measure_argument(parser)
    add_profile_arguments(parser, "after the matrix, per cell")
    parser.add_argument(
        "--measure-counts",
        type=whole(1, MAX_SERVED_COUNTS),
        default=1,
        metavar="N",
        help="with --measure: count each column's served cost N times, each on fresh starts; "
        "a published claim is judged on the spread between them (1)",
    )
    parser.add_argument(
        "--first-requests",
        type=whole(1, MAX_REQUESTS),
        metavar="N",
        help="with --measure: also count the first N requests after a fresh start, no warm-up, "
        "at the first --concurrency level, per request (what an import at the first request "
        "costs), --measure-counts times",
    )
    parser.add_argument(
        "--settled",
        type=whole(1, MAX_CONCURRENCY),
        metavar="C",
        help="with --measure: count each column settled instead (for a server whose processes "
        "keep changing): requests at concurrency C until its processes stop growing, then "
        "windows of 500 requests at 1 until two agree within 2 %%, every process counted",
    )
    parser.add_argument(
        "--second-run",
        type=whole(1, MAX_CONCURRENCY),
        metavar="C",
        help="with --first-requests: then, on the same start, requests at concurrency C until "
        "its processes stop growing in number, and windows of N requests at 1 until two agree "
        "within 2 %% (no import in either): the second run's cost per request",
    )
    add_published_argument(parser, MATRIX)
    add_until_decided_arguments(
        parser,
        "every cell's comparison with the first column's (with --published, each of "
        "the post's conclusions)",
    )
    parser.set_defaults(handler=cmd_matrix)


def cmd_matrix(args: argparse.Namespace) -> int:
    looks = looks_of(args)
    common = add_assignments({}, args.set)
    options = MatrixOptions(
        columns=tuple(
            Column.parse(text, common, args.app) for text in args.servers.split(",") if text.strip()
        ),
        concurrency=parse_concurrency(args.concurrency),
        rung=args.rung,
        duration_s=args.duration,
        warmup_s=args.warmup,
        repeats=args.repeats,
        keep_alive=not args.no_keep_alive,
        pin=not args.no_pin,
        settings=common,
        measure=args.measure,
        served_counts=args.measure_counts,
        first_requests=args.first_requests,
        second_run=args.second_run,
        rerun_warmup_s=args.rerun_warmup,
        settled=args.settled,
        profile=args.profile,
        profile_rate_hz=args.profile_rate,
    )
    published = published_names(args, MATRIX)
    if published is not None:
        check_seed(published, _shape(options))  # a run that cannot hold the post's: refused
    results = ResultsFile(args.json, args.label)
    topology = topology_of(args)
    check_profile_run(args.profile, topology is not None)
    enough, conclude = passes_until_decided(looks, _undecided_by(published))
    progress = MatrixProgress(options, sys.stderr)
    result = run_matrix(options, results, progress, topology, enough=enough, conclude=conclude)
    tables = [
        format_matrix_table(result, wide=args.wide),
        "\n".join(column_verdict_lines(result)),
        "\n\n".join(cell_profile_tables(result)),
        result.until_decided.summary() if result.until_decided else "",
        format_memory_table(matrix_memory_items(result)),
        format_seed_table(result, published) if published is not None else "",
        *matrix_served_tables(result),
    ]
    document = result.to_dict()
    with_hosts(results, document, tables, matrix_memory_items(result))
    publish(results, document, "\n\n".join(table for table in tables if table))
    return EXIT_CELL_FAILED if result.failed else 0


def _undecided_by(published: str | None) -> Callable[[MatrixResult, float], tuple[int, int]]:
    """The run's comparisons undecided at a confidence (_undecided), for --until-decided."""

    def undecided_at(result: MatrixResult, confidence: float) -> tuple[int, int]:
        return _undecided(result, published, confidence)

    return undecided_at


def _undecided(result: MatrixResult, published: str | None, confidence: float) -> tuple[int, int]:
    """How many of the run's comparisons are undecided at ``confidence``, of how many: the
    post's conclusions with ``published``, else each cell against the first column's."""
    if published is not None:
        return undecided(matrix_claim_verdicts(result, published, confidence))
    return undecided(result.compared_vs_first(confidence))


def _shape(options: MatrixOptions) -> RunShape:
    """The run as planned: its columns' settings as given (the defaults not known yet)."""
    columns = tuple(
        RunColumn(c.label, c.adapter, c.app, options.rung_for(c).name, c.book, {})
        for c in options.columns
    )
    return RunShape(columns, options.concurrency)
