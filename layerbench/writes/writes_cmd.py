"""``layerbench writes``: ZODB commits per second through RelStorage (PostgreSQL, MariaDB), ZEO
and FileStorage, and the site's own SQL write path, on throwaway services (seed 003).

layerbench writes [--store NAME,...] [--writers 1,4,16] [--objects N] [--commits N]
                  [--repeats N] [--set mariadb.profile=default|seed003] [--json FILE]
"""

import argparse
import sys
from typing import Any

from layerbench.console.numbers import MAX_COUNT, MAX_REPEATS, MAX_THREADS, whole
from layerbench.errors import ConfigError
from layerbench.lab.run_skeleton import DocumentSaving
from layerbench.servers.server_settings import add_assignments
from layerbench.store.document_file import check_writable
from layerbench.writes.writes_result import WritesResult, WritesTrial
from layerbench.writes.writes_run import WritesOptions, run_writes
from layerbench.writes.writes_stores import STORES

HEADER = (
    f"{'store':<26} {'writers':>7} {'commits/s':>10} {'CV %':>6} {'95 % interval':>15} "
    f"{'p99 ms':>8} {'writers CPU %':>13} {'db CPU %':>8} {'writers MB':>10} {'db MB':>6}"
)


def add_parser(commands: Any) -> None:
    parser = commands.add_parser(
        "writes",
        help="ZODB commits per second: RelStorage, ZEO, FileStorage, and the site's SQL path",
        description="Each store on throwaway services, grown to --objects objects, then "
        "--commits commits shared by each number of --writers (threads, one connection each), "
        "in --repeats interleaved passes: commits per second with its spread, the p99 commit "
        "latency, and the writers' and the database's CPU and memory.",
    )
    parser.add_argument(
        "--store",
        default=",".join(WritesOptions().stores),
        help=f"comma-separated, of: {', '.join(STORES)} (default: %(default)s)",
    )
    parser.add_argument("--writers", default="1,4,16", help="comma-separated (default: 1,4,16)")
    parser.add_argument(
        "--objects", type=whole(0, MAX_COUNT), default=WritesOptions.objects, metavar="N"
    )
    parser.add_argument(
        "--commits", type=whole(1, MAX_COUNT), default=WritesOptions.commits, metavar="N"
    )
    parser.add_argument(
        "--repeats", type=whole(1, MAX_REPEATS), default=WritesOptions.repeats, metavar="N"
    )
    parser.add_argument(
        "--set",
        dest="settings",
        action="append",
        default=[],
        metavar="mariadb.profile=NAME",
        help="MariaDB's InnoDB settings: default, or seed003 (the my.cnf of the original Zope "
        "and RelStorage post)",
    )
    parser.add_argument("--json", metavar="FILE", help="write every trial as JSON ('-': stdout)")
    parser.set_defaults(handler=cmd_writes)


def cmd_writes(args: argparse.Namespace) -> int:
    options = WritesOptions(
        stores=tuple(name.strip() for name in args.store.split(",") if name.strip()),
        writers=_numbers(args.writers, "--writers"),
        objects=args.objects,
        commits=args.commits,
        repeats=args.repeats,
        book=add_assignments({}, args.settings),
    )
    options.check()
    if args.json:
        check_writable(args.json, "the results")
    # The --json file is written after every trial and once more however the run ends.
    result = run_writes(options, _progress, DocumentSaving(args.json))
    table = sys.stderr if args.json == "-" else sys.stdout
    print(render(result), file=table)
    return 0


def _numbers(text: str, flag: str) -> tuple[int, ...]:
    try:
        counts = tuple(int(part) for part in text.split(","))
    except ValueError:
        raise ConfigError(f"{flag} {text!r}: comma-separated whole numbers") from None
    if max(counts) > MAX_THREADS:
        raise ConfigError(f"{flag}: at most {MAX_THREADS:,}, not {max(counts):,}")
    return counts


def _progress(trial: WritesTrial) -> None:
    print(
        f"{trial.store} writers={trial.writers} pass {trial.repeat}: "
        f"{trial.commits_per_s:.1f} commits/s, p99 {trial.p99_latency_us / 1000:.1f} ms",
        file=sys.stderr,
        flush=True,
    )


def render(result: WritesResult) -> str:
    """The table: a row per store and number of writers."""
    lines = [
        f"writes: {result.objects} objects grown, {result.commits} commits per trial, "
        f"{result.repeats} passes, mariadb.profile={result.mariadb_profile}",
        HEADER,
    ]
    for row in result.rows():
        spread = row.commits_per_s
        interval = f"{spread.ci_low:.1f}-{spread.ci_high:.1f}"
        db_cpu = row.cpu_percent.get("database")
        db_pss = row.pss_bytes.get("database")
        lines.append(
            f"{row.store:<26} {row.writers:>7} {spread.median:>10.1f} {100 * spread.cv:>6.1f} "
            f"{interval:>15} {row.p99_latency_us / 1000:>8.1f} "
            f"{row.cpu_percent.get('client', 0.0):>13.0f} "
            f"{'-' if db_cpu is None or not db_pss else f'{db_cpu:.0f}':>8} "
            f"{row.pss_bytes.get('client', 0) / 2**20:>10.0f} "
            f"{'-' if not db_pss else f'{db_pss / 2**20:.0f}':>6}"
        )
    for store, why in result.not_measured.items():
        lines.append(f"{store}: not measured: {why}")
    return "\n".join(lines)
