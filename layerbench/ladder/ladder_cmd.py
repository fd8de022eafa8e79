"""``layerbench ladder``: the cost of each layer, rung by rung, as a table and as JSON."""

import argparse
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from layerbench.console.numbers import MAX_CONCURRENCY, MAX_PORT, MAX_REPEATS, seconds, whole
from layerbench.console.profile_option import add_profile_arguments, check_profile_run
from layerbench.console.topology_option import add_topology_argument, topology_of, with_hosts
from layerbench.console.until_decided import (
    add_until_decided_arguments,
    looks_of,
    passes_until_decided,
    undecided,
)
from layerbench.cost.ladder_cost import ladder_cost_options, run_cost
from layerbench.errors import ConfigError
from layerbench.lab.publish import ResultsFile, publish
from layerbench.ladder.app_costs import format_app_costs
from layerbench.ladder.ladder import services_needed
from layerbench.ladder.ladder_instructions import ladder_instructions_lines
from layerbench.ladder.ladder_progress import LadderProgress
from layerbench.ladder.ladder_result import LadderResult, ladder_memory_items
from layerbench.ladder.ladder_run import run_ladder
from layerbench.ladder.ladder_table import format_ladder_table
from layerbench.ladder.layer_table import profile_tables
from layerbench.ladder.options import DEFAULT_SERVER, LadderOptions
from layerbench.ladder.seed_ladder_table import (
    LadderShape,
    check_ladder_seed,
    format_ladder_seed_table,
    ladder_claim_verdicts,
)
from layerbench.render.worker_memory import format_memory_table
from layerbench.replicate.published import LADDER
from layerbench.replicate.published_option import add_published_argument, published_names
from layerbench.rungs.applications import APPLICATIONS, BARE
from layerbench.rungs.definitions import FULL_RUNG_NAMES, RUNG_NAMES
from layerbench.served.measure_option import add_measure_argument
from layerbench.served.served_ladder import ladder_served, served_after_ladder, services_note
from layerbench.served.served_table import format_served_document
from layerbench.servers.adapters import ADAPTERS, Serves
from layerbench.servers.server_settings import add_assignments

EXIT_RUNG_FAILED = 1


def add_parser(commands: Any) -> None:
    parser = commands.add_parser(
        "ladder",
        help="measure each layer of the stack, rung by rung",
        description="Measure each layer of the stack, rung by rung: "
        + ", ".join(RUNG_NAMES)
        + " on the embedded defaults (SQLite, the in-process cache); with --full, on throwaway "
        "memcached, Redis, MariaDB and PostgreSQL: "
        + ", ".join(FULL_RUNG_NAMES)
        + ". Each rung is verified, warmed up, then measured.",
    )
    parser.add_argument("--full", action="store_true", help="the full ladder, on real services")
    add_run_arguments(parser, default_json=Path("ladder.json"))
    parser.add_argument("--rungs", help="comma-separated rungs (all of the ladder's)")
    parser.add_argument(
        "--apps",
        metavar="NAME,NAME…",
        help="several applications in one run, interleaved like the repeats: a row per "
        "application and rung, and what each costs over bare (instead of --app)",
    )
    parser.add_argument("--wide", action="store_true", help="the table with every column")
    add_profile_arguments(parser, "after the ladder, per rung")
    add_topology_argument(parser)
    parser.add_argument(
        "--instructions",
        action="store_true",
        help="then count each rung's instructions per request under valgrind (layerbench "
        "cost's pass) and show them beside req/s",
    )
    add_measure_argument(parser)
    add_published_argument(parser, LADDER)
    add_until_decided_arguments(
        parser,
        "every rung's comparison with the rung above it (with --published, each "
        "of the post's conclusions)",
    )
    parser.set_defaults(handler=cmd_ladder)


def add_run_arguments(parser: argparse.ArgumentParser, *, default_json: Path) -> None:
    """The options of a ladder run: its server, load, repeats, pinning and results file."""
    parser.add_argument(
        "--server",
        default=DEFAULT_SERVER,
        choices=[name for name, a in ADAPTERS.items() if a.serves is not Serves.STATIC],
        metavar="NAME",
        help=f"the server adapter that runs the application ({DEFAULT_SERVER}); "
        "see layerbench matrix --help",
    )
    parser.add_argument(
        "--set",
        action="append",
        default=[],
        metavar="SERVER.KEY=VALUE",
        help="a setting of the server (repeatable), e.g. gunicorn.workers=4",
    )
    parser.add_argument(
        "--app",
        default=BARE.name,
        metavar="NAME",
        help=f"the application the server runs: {', '.join(APPLICATIONS)} ({BARE.name}); "
        "a rung it does not answer is not applicable",
    )
    parser.add_argument(
        "-c", "--concurrency", type=whole(1, MAX_CONCURRENCY), default=10, help="connections (10)"
    )
    parser.add_argument(
        "-d", "--duration", type=seconds(), default=3.0, help="seconds measured per trial (3)"
    )
    parser.add_argument(
        "--warmup", type=seconds(zero=True), default=1.0, help="seconds of warm-up per trial (1)"
    )
    parser.add_argument(
        "--repeats",
        type=whole(1, MAX_REPEATS),
        default=3,
        help="passes over the rungs, interleaved; each rung shows its median (3)",
    )
    parser.add_argument(
        "--no-keep-alive", action="store_true", help="a new connection for every request"
    )
    parser.add_argument(
        "--port",
        type=whole(1, MAX_PORT),
        help="loopback port for the application server (a free one)",
    )
    parser.add_argument("--no-pin", action="store_true", help="do not pin client and server")
    parser.add_argument(
        "--json", type=Path, default=default_json, help=f"results file ({default_json})"
    )
    parser.add_argument("--label", help="a name for the run in the results database")


def ladder_options(args: argparse.Namespace, **chosen: Any) -> LadderOptions:
    """LadderOptions from the arguments of :func:`add_run_arguments`, and ``chosen``."""
    return LadderOptions(
        concurrency=args.concurrency,
        duration_s=args.duration,
        warmup_s=args.warmup,
        repeats=args.repeats,
        keep_alive=not args.no_keep_alive,
        full=args.full,
        server=args.server,
        settings=add_assignments({}, args.set, default_section=args.server),
        pin=not args.no_pin,
        port=args.port,
        **{"apps": (args.app,), **chosen},
    )


def cmd_ladder(args: argparse.Namespace) -> int:
    looks = looks_of(args)
    rungs = None
    if args.rungs is not None:
        rungs = tuple(name.strip() for name in args.rungs.split(",") if name.strip())
    several = {}
    if args.apps is not None:
        if args.app != BARE.name:
            raise ConfigError("--app or --apps, not both")
        several["apps"] = tuple(name.strip() for name in args.apps.split(",") if name.strip())
    options = ladder_options(
        args, rungs=rungs, profile=args.profile, profile_rate_hz=args.profile_rate, **several
    )
    published = published_names(args, LADDER)
    if published is not None:
        check_ladder_seed(published, _shape(options))  # a ladder that cannot hold it: refused
    topology = topology_of(args)
    check_profile_run(args.profile, topology is not None)  # refused before the ladder runs
    results = ResultsFile(args.json, args.label)
    counting = None
    if args.instructions:  # refused before the ladder runs when it cannot be done
        names = tuple(rung.name for rung in options.ladder)
        counting = ladder_cost_options(options.full, options.apps, names, options.settings)
    served = None
    if args.measure is not None:  # refused before the ladder runs when it cannot be done
        served = ladder_served(
            measure=args.measure,
            apps=options.apps,
            rungs=options.ladder,
            server=options.server,
            book=options.settings,
            services=services_needed(options),
            topology=topology is not None,
        )
    progress = LadderProgress(options, sys.stderr)
    enough, conclude = passes_until_decided(looks, _undecided_by(published))
    result = run_ladder(options, results, progress, conclude, topology, enough=enough)
    if counting is not None:
        print("counting instructions per request (layerbench cost)", file=sys.stderr)
        result.instructions = run_cost(counting)
        results.save(result.to_dict())
    if served is not None:
        print(f"counting what each rung costs {options.server}, served", file=sys.stderr)
        result.served = served_after_ladder(served, options.pin, result.instructions)
        results.save(result.to_dict())
    table = format_ladder_table(result, wide=args.wide)
    if result.until_decided is not None:
        table += "\n\n" + result.until_decided.summary()
    profiles = "\n\n".join(profile_tables(result))
    costs = format_app_costs(result)  # with several applications
    memory = format_memory_table(ladder_memory_items(result))
    instructions = "\n".join(ladder_instructions_lines(result))
    document = result.to_dict()
    beside = format_ladder_seed_table(result, published) if published is not None else ""
    served_table = "\n".join(
        part
        for part in (format_served_document(result.served), services_note(result.served))
        if part
    )
    tables = [table, profiles, costs, memory, instructions, served_table, beside]
    with_hosts(results, document, tables, ladder_memory_items(result))
    publish(results, document, "\n\n".join(part for part in tables if part))
    return EXIT_RUNG_FAILED if result.failed else 0


def _undecided_by(published: str | None) -> Callable[[LadderResult, float], tuple[int, int]]:
    """The run's comparisons undecided at a confidence (_undecided), for --until-decided."""

    def undecided_at(result: LadderResult, confidence: float) -> tuple[int, int]:
        return _undecided(result, published, confidence)

    return undecided_at


def _undecided(result: LadderResult, published: str | None, confidence: float) -> tuple[int, int]:
    """How many of the run's comparisons are undecided at ``confidence``, of how many: the
    post's conclusions with ``published``, else each rung against the one above it."""
    if published is not None:
        return undecided(ladder_claim_verdicts(result, published, confidence))
    return undecided(result.compared_vs_above(confidence))


def _shape(options: LadderOptions) -> LadderShape:
    """The ladder as planned: its settings as given (the defaults not known yet)."""
    rungs = tuple(rung.name for rung in options.ladder)
    book = options.settings
    return LadderShape(options.server, options.apps, options.full, book, rungs, options.concurrency)
