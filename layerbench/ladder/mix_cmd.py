"""``layerbench mix``: a mixed load of cache hits and misses, predicted from the two rungs
measured alone and then measured, with the error of the prediction."""

import argparse
import sys
from pathlib import Path
from typing import Any

from layerbench.console.numbers import real
from layerbench.console.topology_option import add_topology_argument, topology_of, with_hosts
from layerbench.errors import IncompleteRunError
from layerbench.lab.publish import ResultsFile, publish
from layerbench.ladder.ladder_cmd import EXIT_RUNG_FAILED, add_run_arguments, ladder_options
from layerbench.ladder.ladder_progress import LadderProgress
from layerbench.ladder.ladder_result import ladder_memory_items
from layerbench.ladder.ladder_run import run_mix
from layerbench.ladder.ladder_table import format_ladder_table
from layerbench.ladder.mix import DEFAULT_HIT, DEFAULT_MISS, MixOptions
from layerbench.ladder.mix_lines import format_mix


def add_parser(commands: Any) -> None:
    parser = commands.add_parser(
        "mix",
        help="predict a mixed load of hits and misses from its rungs, then measure it",
        description="With a 90 % hit ratio on the cache, how many "
        "requests per second? Measures the hit rung and the miss rung alone, predicts the mix "
        "(per-request costs add up, so rates combine harmonically: 1 / (h / hit + (1 - h) / "
        "miss)), measures the real mix (the load generator's weighted URLs, interleaved with "
        "the two in every pass) and prints the error of the prediction.",
    )
    parser.add_argument(
        "--hit",
        type=real(0, 1),
        required=True,
        metavar="RATIO",
        help="the share of requests that are hits, between 0 and 1 (0.9 for 90 %%)",
    )
    parser.add_argument(
        "--hit-rung", default=DEFAULT_HIT, help=f"the rung of a hit ({DEFAULT_HIT})"
    )
    parser.add_argument(
        "--miss-rung", default=DEFAULT_MISS, help=f"the rung of a miss ({DEFAULT_MISS})"
    )
    parser.add_argument(
        "--full", action="store_true", help="rungs of the full ladder, on real services"
    )
    add_run_arguments(parser, default_json=Path("mix.json"))
    add_topology_argument(parser)
    parser.set_defaults(handler=cmd_mix)


def cmd_mix(args: argparse.Namespace) -> int:
    mix = MixOptions(hit_ratio=args.hit, hit=args.hit_rung, miss=args.miss_rung)
    options = ladder_options(args, mix=mix)
    topology = topology_of(args)
    results = ResultsFile(args.json, args.label)
    run = run_mix(options, results, LadderProgress(options, sys.stderr), topology)
    # The prediction against the measurement after the table (and the per-host table).
    tables = [format_ladder_table(run.ladder)]
    if run.outcome is not None:
        tables.append(format_mix(run.outcome))
    document = run.ladder.to_dict()
    with_hosts(results, document, tables, ladder_memory_items(run.ladder))
    publish(results, document, "\n\n".join(tables))
    if run.outcome is None:
        raise IncompleteRunError("the mix was not predicted: a rung was not measured")
    return EXIT_RUNG_FAILED if run.ladder.failed else 0
