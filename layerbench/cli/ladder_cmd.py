"""``layerbench ladder``: the cost of each layer, rung by rung, as a table and as JSON."""

import argparse
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any

from layerbench.cli.progress import LadderProgress
from layerbench.cli.results_file import check_writable, now
from layerbench.lab.conditions import collect_conditions
from layerbench.lab.cpu_layout import plan_cpu_layout
from layerbench.lab.ladder import Ladder
from layerbench.lab.loadgen import find_load_generator
from layerbench.lab.options import LadderOptions
from layerbench.lab.results import LadderResult
from layerbench.lab.rungs import RUNG_NAMES
from layerbench.report.json_export import write_json
from layerbench.report.ladder_table import format_ladder_table

EXIT_RUNG_FAILED = 1


def add_parser(commands: Any) -> None:
    parser = commands.add_parser(
        "ladder",
        help="measure each layer of the stack, rung by rung",
        description="Measure each layer of the stack, rung by rung: "
        + ", ".join(RUNG_NAMES)
        + ". Each rung is verified, warmed up, then measured.",
    )
    parser.add_argument("-c", "--concurrency", type=int, default=10, help="connections (10)")
    parser.add_argument(
        "-d", "--duration", type=float, default=8.0, help="seconds measured per rung (8)"
    )
    parser.add_argument("--warmup", type=float, default=2.0, help="seconds of warm-up (2)")
    parser.add_argument(
        "--no-keep-alive", action="store_true", help="a new connection for every request"
    )
    parser.add_argument("--workers", type=int, default=2, help="gunicorn worker processes (2)")
    parser.add_argument("--rungs", default=",".join(RUNG_NAMES), help="comma-separated rungs (all)")
    parser.add_argument(
        "--port", type=int, help="loopback port for the application server (a free one)"
    )
    parser.add_argument("--no-pin", action="store_true", help="do not pin client and server")
    parser.add_argument(
        "--json", type=Path, default=Path("ladder.json"), help="results file (ladder.json)"
    )
    parser.set_defaults(handler=cmd_ladder)


def cmd_ladder(args: argparse.Namespace) -> int:
    options = LadderOptions(
        concurrency=args.concurrency,
        duration_s=args.duration,
        warmup_s=args.warmup,
        keep_alive=not args.no_keep_alive,
        workers=args.workers,
        rungs=tuple(name.strip() for name in args.rungs.split(",") if name.strip()),
        pin=not args.no_pin,
        port=args.port,
    )
    json_path: Path = args.json
    check_writable(json_path)
    layout = plan_cpu_layout(pin=options.pin)
    load_binary = find_load_generator()
    result = LadderResult(
        options=options.to_dict(),
        conditions=collect_conditions(layout),
        started_at=now(),
    )
    progress = LadderProgress(options, layout, sys.stderr)
    progress.begin()

    def save() -> None:
        if str(json_path) != "-":
            write_json(result.to_dict(), json_path)

    workdir = Path(tempfile.mkdtemp(prefix="layerbench-"))
    workdir.chmod(0o711)  # servers that drop privileges must reach their docroot below it
    try:
        Ladder(
            options=options,
            layout=layout,
            load_binary=load_binary,
            workdir=workdir,
            result=result,
            observer=progress,
            checkpoint=save,
        ).run()
    except KeyboardInterrupt:
        result.interrupted = True
        raise
    finally:
        result.finished_at = now()
        shutil.rmtree(workdir, ignore_errors=True)
        save()
        if str(json_path) != "-":
            print(f"results written to {json_path}", file=sys.stderr)
    print(format_ladder_table(result))
    if str(json_path) == "-":
        write_json(result.to_dict(), json_path)
    return EXIT_RUNG_FAILED if result.failed else 0
