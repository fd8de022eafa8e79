"""``layerbench mix``: a mixed load of cache hits and misses, predicted from the two rungs
measured alone and then measured, with the error of the prediction."""

import argparse
import sys
from pathlib import Path
from typing import Any

from layerbench.cli.ladder_cmd import EXIT_RUNG_FAILED, add_run_arguments, run_ladder, run_options
from layerbench.lab.mix import (
    DEFAULT_HIT,
    DEFAULT_MISS,
    MixOptions,
    MixOutcome,
    format_mix,
    mix_outcome,
)
from layerbench.report.ladder_table import format_ladder_table
from layerbench.results.ladder_result import LadderResult


def add_parser(commands: Any) -> None:
    parser = commands.add_parser(
        "mix",
        help="predict a mixed load of hits and misses from its rungs, then measure it",
        description="Seed 000's question: with a 90 % hit ratio on the cache, how many "
        "requests per second? Measures the hit rung and the miss rung alone, predicts the mix "
        "(per-request costs add up, so rates combine harmonically: 1 / (h / hit + (1 - h) / "
        "miss)), measures the real mix (the load generator's weighted URLs, interleaved with "
        "the two in every pass) and prints the error of the prediction.",
    )
    parser.add_argument(
        "--hit",
        type=float,
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
    parser.set_defaults(handler=cmd_mix)


def cmd_mix(args: argparse.Namespace) -> int:
    mix = MixOptions(hit_ratio=args.hit, hit=args.hit_rung, miss=args.miss_rung)
    options = run_options(args, mix=mix)

    outcomes: list[MixOutcome] = []

    def conclude(result: LadderResult) -> None:
        outcome = mix_outcome(mix, result)
        if outcome is not None:
            outcomes.append(outcome)
            result.mix = outcome.to_dict()

    def table(result: LadderResult) -> str:
        """The ladder's table, then the prediction against the measurement."""
        rungs = format_ladder_table(result)
        return rungs + "\n\n" + format_mix(outcomes[0]) if outcomes else rungs

    result = run_ladder(options, args.json, conclude, table, label=args.label)
    if not outcomes:
        print("layerbench: the mix was not predicted: a rung was not measured", file=sys.stderr)
        return EXIT_RUNG_FAILED
    return EXIT_RUNG_FAILED if result.failed else 0
