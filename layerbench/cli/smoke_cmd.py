"""``layerbench smoke package.module:application --baseline perf.json [--save]``: a performance
smoke test for CI. Exit 0 when no URL is slower beyond the tolerance, 1 when one regressed (the
run says which and by how much), 2 when nothing could be measured or compared: a usage error,
an application that does not load, a server that does not start, a URL that does not answer
2xx, a baseline measured under other conditions. A typo never fails a build as a regression."""

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from layerbench.cli.smoke_instructions import smoke_instructions
from layerbench.cost.cost_plan import DEFAULT_REQUESTS
from layerbench.errors import ConfigError
from layerbench.lab.smoke import SmokeOptions
from layerbench.lab.smoke_baseline import baseline_document, read_baseline
from layerbench.lab.smoke_run import BaselineToMeet, run_smoke
from layerbench.report.smoke_table import saved_line, verdict_lines
from layerbench.results.smoke_result import check_in_baseline, judge
from layerbench.servers.server_settings import add_assignments
from layerbench.sites import check_importable

EXIT_REGRESSED = 1
DEFAULT_TOLERANCE = 0.10


def add_parser(commands: Any) -> None:
    parser = commands.add_parser(
        "smoke",
        help="a performance smoke test of your WSGI application against a baseline",
        description="Run package.module:application under a server adapter, measure each URL "
        "with interleaved repeats, and compare with the baseline: exit 0 when no URL is "
        "significantly slower beyond the tolerance, 1 when one is, 2 on a usage error.",
    )
    parser.add_argument("app", help="the WSGI application, package.module:callable")
    parser.add_argument("--url", action="append", help="a path to measure (repeatable; /)")
    parser.add_argument("--baseline", type=Path, required=True, help="the baseline JSON file")
    parser.add_argument("--save", action="store_true", help="measure and save the baseline")
    parser.add_argument("--server", default="gunicorn", help="the server adapter (gunicorn)")
    parser.add_argument("--set", action="append", default=[], metavar="SERVER.KEY=VALUE")
    parser.add_argument("--repeats", type=int, default=5, help="trials per URL (5)")
    parser.add_argument("-d", "--duration", type=float, default=2.0, help="seconds per trial (2)")
    parser.add_argument("--warmup", type=float, default=0.5, help="seconds of warm-up (0.5)")
    parser.add_argument("-c", "--concurrency", type=int, default=10, help="connections (10)")
    parser.add_argument(
        "--tolerance",
        type=float,
        default=None,
        help="slowdown tolerated, a fraction (0.10; with --measure instructions 0.01)",
    )
    parser.add_argument(
        "--measure",
        choices=("requests", "instructions"),
        default="requests",
        help="req/s under the server (requests), or instructions per request of the "
        "application called in-process under valgrind (instructions)",
    )
    parser.add_argument(
        "--requests",
        type=int,
        default=DEFAULT_REQUESTS,
        help=f"--measure instructions: requests counted per URL and repeat ({DEFAULT_REQUESTS})",
    )
    parser.add_argument(
        "--app-path",
        action="append",
        default=[],
        help="a directory to import the application from (the current one)",
    )
    parser.add_argument(
        "--ignore-conditions",
        action="store_true",
        help="compare with a baseline measured under other conditions (server, settings, "
        "concurrency, URLs, machine), saying how they differ",
    )
    parser.set_defaults(handler=cmd_smoke)


def cmd_smoke(args: argparse.Namespace) -> int:
    if args.measure == "instructions":
        return smoke_instructions(args)
    options = SmokeOptions(
        app=args.app,
        urls=tuple(args.url or ["/"]),
        server=args.server,
        settings=add_assignments({}, args.set, default_section=args.server),
        repeats=args.repeats,
        duration_s=args.duration,
        warmup_s=args.warmup,
        concurrency=args.concurrency,
        tolerance=DEFAULT_TOLERANCE if args.tolerance is None else args.tolerance,
        app_path=tuple(args.app_path or ["."]),
    )
    check_importable(options.app, [str(Path(p).resolve()) for p in options.app_path])
    against = None
    if not args.save:
        against = BaselineToMeet(
            read_baseline(args.baseline), args.baseline, args.ignore_conditions
        )
        check_in_baseline(against.baseline.rates, options.urls)
    measured = run_smoke(options, against, _note)
    if against is None:
        document = baseline_document(options.app, measured.conditions, measured.rates)
        try:
            args.baseline.write_text(json.dumps(document, indent=2))
        except OSError as error:
            raise ConfigError(f"cannot write {args.baseline}: {error.strerror}") from None
        print(saved_line(args.baseline, measured.rates))
        return 0
    verdicts = judge(against.baseline.rates, measured.rates, options.tolerance)
    print("\n".join(verdict_lines(verdicts, options.tolerance)))
    return EXIT_REGRESSED if any(v.regressed for v in verdicts) else 0


def _note(text: str) -> None:
    print(f"layerbench: note: {text}", file=sys.stderr)
