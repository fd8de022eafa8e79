"""``layerbench smoke package.module:application --baseline perf.json [--save]``: a performance
smoke test for CI. Exit 0 when no URL is slower beyond the tolerance, 1 when one regressed (the
run says which and by how much), 2 on a usage error."""

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from layerbench.app.user_app import check_importable
from layerbench.cli.results_file import work_directory
from layerbench.errors import ConfigError
from layerbench.lab.cpu_layout import plan_cpu_layout
from layerbench.lab.loadgen import find_load_generator
from layerbench.lab.smoke import (
    SmokeOptions,
    baseline_document,
    judge,
    measure,
    read_baseline,
)
from layerbench.report.text_table import format_table
from layerbench.servers.settings import add_assignments

EXIT_REGRESSED = 1
EXIT_USAGE = 2


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
        "--tolerance", type=float, default=0.10, help="slowdown tolerated, a fraction (0.10)"
    )
    parser.add_argument(
        "--app-path",
        action="append",
        default=[],
        help="a directory to import the application from (the current one)",
    )
    parser.set_defaults(handler=cmd_smoke)


def cmd_smoke(args: argparse.Namespace) -> int:
    try:
        options = SmokeOptions(
            app=args.app,
            urls=tuple(args.url or ["/"]),
            server=args.server,
            settings=add_assignments({}, args.set, default_section=args.server),
            repeats=args.repeats,
            duration_s=args.duration,
            warmup_s=args.warmup,
            concurrency=args.concurrency,
            tolerance=args.tolerance,
            app_path=tuple(args.app_path or ["."]),
        )
        check_importable(options.app, [str(Path(p).resolve()) for p in options.app_path])
        baseline = None if args.save else read_baseline(args.baseline)
    except ConfigError as error:
        print(f"layerbench: error: {error}", file=sys.stderr)
        return EXIT_USAGE
    layout = plan_cpu_layout()
    with work_directory("layerbench-smoke-") as workdir:
        rates = measure(options, layout, find_load_generator(), workdir)
    if baseline is None:
        try:
            args.baseline.write_text(json.dumps(baseline_document(options, rates), indent=2))
        except OSError as error:
            print(
                f"layerbench: error: cannot write {args.baseline}: {error.strerror}",
                file=sys.stderr,
            )
            return EXIT_USAGE
        print(
            f"baseline saved to {args.baseline}: "
            + ", ".join(
                f"{url} {sorted(values)[len(values) // 2]:,.0f} req/s"
                for url, values in rates.items()
            )
        )
        return 0
    try:
        verdicts = judge(baseline, rates, options.tolerance)
    except ConfigError as error:
        print(f"layerbench: error: {error}", file=sys.stderr)
        return EXIT_USAGE
    rows = [["url", "baseline req/s", "now req/s", "now/baseline", "95 % interval", ""]]
    for verdict in verdicts:
        c = verdict.comparison
        interval = f"{c.ci_low:.3f} to {c.ci_high:.3f}" if c.ci_low and c.ci_high else ""
        word = "REGRESSED" if verdict.regressed else "ok"
        rows.append(
            [
                verdict.url,
                f"{c.median_a:,.0f}",
                f"{c.median_b:,.0f}",
                f"{c.ratio:.3f}",
                interval,
                word,
            ]
        )
    print("\n".join(format_table(rows, right_from=1)))
    regressed = [v for v in verdicts if v.regressed]
    for verdict in regressed:
        slower = 1 - verdict.comparison.ratio
        print(
            f"{verdict.url} regressed: {slower:.0%} slower than the baseline "
            f"(beyond the {options.tolerance:.0%} tolerated, and significant)"
        )
    return EXIT_REGRESSED if regressed else 0
