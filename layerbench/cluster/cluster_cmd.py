"""``layerbench cluster``: the demo site on a topology's hosts (issue 26): N app hosts behind
nginx least_conn, the site on a 3-node Galera cluster, the page cache shared (or per host).

layerbench cluster TOPOLOGY [--writers 1,3,6] [--writes-each N] [--duration S]
                            [--cache shared,local] [--json FILE]
"""

import argparse
import os
import sys
from pathlib import Path
from typing import Any

from layerbench.cluster.cluster_plan import CACHES, ClusterOptions, plan_cluster
from layerbench.cluster.cluster_run import empty_result, run_cluster
from layerbench.cluster.cluster_table import render
from layerbench.console.numbers import MAX_COUNT, MAX_THREADS, whole
from layerbench.errors import ConfigError
from layerbench.hosts.topology import read_topology
from layerbench.lab.run_skeleton import DocumentSaving
from layerbench.store.document_file import check_writable


def add_parser(commands: Any) -> None:
    parser = commands.add_parser(
        "cluster",
        help="the site on a topology's hosts: app hosts behind nginx, Galera, a shared cache",
        description="The demo site on every app host of TOPOLOGY (app host i on Galera node "
        "i), nginx least_conn in front, the page cache shared on the cache host or per host. "
        "Measured from the client host: writers on every node, by the site's repository and "
        "through its HTTP API behind nginx (id collisions, rows and audit rows lost or doubled, "
        "certification conflicts retried, failed PUTs sent again), 1 node against 3, and "
        "read-your-write across hosts (stale pages) with Galera's reads causal or not.",
    )
    parser.add_argument("topology", type=Path, help="the topology file (TOML)")
    defaults = ClusterOptions()
    parser.add_argument(
        "--writers",
        default=",".join(map(str, defaults.writers)),
        help="writer counts, comma-separated (default: %(default)s)",
    )
    parser.add_argument(
        "--writes-each", type=whole(1, MAX_COUNT), default=defaults.writes_each, metavar="N"
    )
    parser.add_argument(
        "--duration",
        type=float,  # checked with the plan (0 < S <= 3600; nan is neither), before anything
        default=defaults.duration_s,
        metavar="S",
        help="read-your-write rounds per site condition, seconds (default: %(default)s)",
    )
    parser.add_argument(
        "--cache",
        default=",".join(CACHES),
        help="the page cache: shared (memcached on the cache host), local (per app host), "
        "comma-separated (default: %(default)s)",
    )
    parser.add_argument(
        "--json", type=Path, metavar="FILE", help="the result as JSON ('-': stdout)"
    )
    parser.set_defaults(handler=cmd_cluster)


def cmd_cluster(args: argparse.Namespace) -> int:
    options = ClusterOptions(
        writers=numbers(args.writers),
        writes_each=args.writes_each,
        duration_s=args.duration,
        caches=tuple(part.strip() for part in args.cache.split(",")),
    )
    options.check()
    if args.json:
        check_writable(args.json, "the results")
    plan = plan_cluster(read_topology(args.topology), options, args.topology)
    if os.geteuid() != 0:
        raise ConfigError("the cluster's hosts are network namespaces: run it as root")
    result = empty_result(plan)
    try:  # the --json file is written after every step, and once more however the run ends
        run_cluster(plan, options, result, _progress, DocumentSaving(args.json))
    finally:  # what was measured is shown, also after an error or Ctrl-C
        print("\n".join(render(result)), file=sys.stderr if str(args.json) == "-" else sys.stdout)
    return 0


def _progress(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


def numbers(text: str) -> tuple[int, ...]:
    try:
        counts = tuple(int(part) for part in text.split(","))
    except ValueError:
        raise ConfigError(f"--writers {text!r}: comma-separated whole numbers") from None
    if max(counts) > MAX_THREADS:
        raise ConfigError(f"--writers: at most {MAX_THREADS:,} writers, not {max(counts):,}")
    return counts
