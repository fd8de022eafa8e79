"""``layerbench cost [--app NAME] [--rungs …] [--requests N] [--repeats R] [--profile RUNG]
[--set SECTION.KEY=VALUE]``: instructions per request of each rung, the application called
in-process under callgrind, on the data the settings choose (the ladder's)."""

import argparse
import sys
from pathlib import Path
from typing import Any

from layerbench.console.numbers import MAX_COUNTED_REQUESTS, MAX_REPEATS, whole
from layerbench.console.output import print_out
from layerbench.cost.cost_plan import DEFAULT_REPEATS, DEFAULT_REQUESTS, DEFAULT_WARMUP
from layerbench.cost.cost_services import check_cost_sections
from layerbench.cost.cost_table import cost_lines
from layerbench.cost.ladder_cost import CostOptions, run_cost
from layerbench.cost.layer_cost_table import layer_cost_lines
from layerbench.servers.server_settings import add_assignments
from layerbench.store.document_file import check_writable, write_document


def add_parser(commands: Any) -> None:
    parser = commands.add_parser(
        "cost",
        help="instructions per request of each rung, counted by valgrind (callgrind)",
        description="Call the application in-process with each rung's request under "
        "callgrind: after a warm-up, N requests collected, in R repeats; print per rung its "
        "instructions per request, what its layer adds over the rung above, and the spread "
        "of the repeats. Needs valgrind (apt-get install valgrind) and gcc.",
    )
    parser.add_argument("--app", default="bare", help="the application (bare)")
    parser.add_argument("--rungs", help="comma-separated rungs (every one the app answers)")
    parser.add_argument(
        "--requests",
        type=whole(1, MAX_COUNTED_REQUESTS),
        default=DEFAULT_REQUESTS,
        help=f"collected per rung ({DEFAULT_REQUESTS})",
    )
    parser.add_argument(
        "--warmup",
        type=whole(0, MAX_COUNTED_REQUESTS),
        default=DEFAULT_WARMUP,
        help=f"requests before ({DEFAULT_WARMUP})",
    )
    parser.add_argument(
        "--repeats",
        type=whole(1, MAX_REPEATS),
        default=DEFAULT_REPEATS,
        help=f"processes ({DEFAULT_REPEATS})",
    )
    parser.add_argument(
        "--jobs", type=whole(0, MAX_REPEATS), default=0, help="repeats run at once (one per CPU)"
    )
    parser.add_argument("--profile", metavar="RUNG", help="show the rung's top functions")
    parser.add_argument(
        "--by-layer",
        action="store_true",
        help="then each rung's instructions per request by shared object and the layer it "
        "belongs to (CPython, libsqlite3, a package's compiled modules…)",
    )
    parser.add_argument(
        "--set",
        action="append",
        default=[],
        metavar="SECTION.KEY=VALUE",
        help="where the data is, as on the ladder (repeatable): site.database=mariadb, "
        "zope.storage=relstorage-postgres|relstorage-mariadb",
    )
    parser.add_argument("--json", type=Path, help="write the results as JSON (- for stdout)")
    parser.set_defaults(handler=cmd_cost)


def cmd_cost(args: argparse.Namespace) -> int:
    rungs = None
    if args.rungs is not None:
        rungs = tuple(name.strip() for name in args.rungs.split(",") if name.strip())
    settings = add_assignments({}, args.set)
    check_cost_sections(settings)
    options = CostOptions(
        app=args.app,
        rungs=rungs,
        requests=args.requests,
        warmup=args.warmup,
        repeats=args.repeats,
        jobs=args.jobs,
        profile=args.profile,
        by_layer=args.by_layer,
        settings=settings,
    )
    if args.json is not None:
        check_writable(args.json, "the results")
    result = run_cost(options)
    lines = cost_lines(result)
    if args.by_layer:
        lines += ["", *layer_cost_lines(result)]
    if args.json is not None:
        write_document(result.to_dict(), args.json)
        if str(args.json) == "-":
            print("\n".join(lines), file=sys.stderr)
            return 0
    print_out(*lines)
    return 0
