"""``layerbench replicate``: the published experiments this tool re-runs, by name.

layerbench replicate --list         each experiment: its name, its post and year, its claim
layerbench replicate NAME           run it (a ladder or a matrix), then the post's figures
                                    and claims beside this run's
layerbench replicate NAME --command the command it runs, printed, not run
"""

import argparse
import shlex
import unicodedata
from collections.abc import Callable
from pathlib import Path
from typing import Any

from layerbench.console.numbers import whole
from layerbench.console.output import print_out
from layerbench.console.until_decided import add_until_decided_arguments, until_decided_argv
from layerbench.errors import ConfigError
from layerbench.replicate.count_claims import COUNTS, MAX_SERVED_COUNTS
from layerbench.replicate.published import Published, names, published, published_named
from layerbench.replicate.seed_figures import SeedExperiment
from layerbench.served.measure_option import add_measure_argument

# Under an experiment's name in --list.
INDENT = "    "
# The terminal's columns --list fits.
WIDTH = 120


def add_parser(commands: Any, build_parser: Callable[[], argparse.ArgumentParser]) -> None:
    """``build_parser``: layerbench's, which parses the command an experiment runs."""
    parser = commands.add_parser(
        "replicate",
        help="re-run a published experiment and set its figures beside this machine's",
        description="Re-run an experiment of a published post on this machine, by name (see "
        "--list), then print the post's figures and claims beside this run's, each claim judged "
        "by this run's ratio and its interval. The options given here take the place of the "
        "experiment's own (a shorter run: -d 1 --repeats 2).",
    )
    parser.add_argument("name", nargs="?", metavar="NAME", help="the experiment (see --list)")
    parser.add_argument(
        "--list", action="store_true", help="each experiment: its post, year and headline claim"
    )
    parser.add_argument(
        "--command",
        action="store_true",
        help="print the layerbench command the experiment runs, and do not run it",
    )
    parser.add_argument("-d", "--duration", type=float, help="seconds measured per trial")
    parser.add_argument("--warmup", type=float, help="seconds of warm-up per trial")
    parser.add_argument("--repeats", type=int, help="passes, interleaved")
    parser.add_argument("--no-pin", action="store_true", help="do not pin client and server")
    parser.add_argument("--json", type=Path, help="results file (NAME.json)")
    parser.add_argument("--label", help="a name for the run in the results database (NAME)")
    add_measure_argument(parser)
    parser.add_argument(
        "--counts",
        type=served_counts,
        default=COUNTS,
        metavar="N",
        help="with --measure, served counts of each configuration a claim about what a request "
        f"costs is judged on, 2 to {MAX_SERVED_COUNTS}: the claim is judged on their spread "
        f"({COUNTS})",
    )
    add_until_decided_arguments(parser, "each of the post's conclusions")
    parser.set_defaults(handler=cmd_replicate, build_parser=build_parser)


def served_counts(text: str) -> int:
    """--counts: 2 or more, since one count has no spread to judge a claim on (a verdict on it
    would always be inconclusive)."""
    if text.strip() == "1":
        raise argparse.ArgumentTypeError(
            "1 count has no spread to judge a claim on (its verdict would be inconclusive): "
            f"2 to {MAX_SERVED_COUNTS}"
        )
    return whole(2, MAX_SERVED_COUNTS)(text)


def cmd_replicate(args: argparse.Namespace) -> int:
    if args.list:
        if args.name is not None:
            raise ConfigError("--list or an experiment's name, not both")
        print_out(*list_lines(published()))
        return 0
    if args.name is None:
        raise ConfigError(f"which experiment? one of: {', '.join(names())} (see --list)")
    experiment = published_named(args.name)
    argv = replicate_argv(experiment, args)
    if args.command:
        print_out(shlex.join(["layerbench", *argv]))
        return 0
    # The command's own parser and handler, as if it had been typed.
    run_args = args.build_parser().parse_args(argv)
    status: int = run_args.handler(run_args)
    return status


def replicate_argv(experiment: Published, args: argparse.Namespace) -> list[str]:
    """The experiment's command, this run's options after it (argparse keeps the last)."""
    argv = shlex.split(experiment.command)
    for option, value in (
        ("--duration", args.duration),
        ("--warmup", args.warmup),
        ("--repeats", args.repeats),
    ):
        if value is not None:
            argv += [option, str(value)]
    if args.no_pin and "--no-pin" not in argv:
        argv.append("--no-pin")
    if args.measure is not None:  # its columns' (or rungs') served cost, beside the rates
        argv += ["--measure", args.measure]
        argv += counted_argv(experiment, args.counts)
    argv += until_decided_argv(args)
    argv += ["--json", str(args.json or Path(f"{experiment.name}.json"))]
    argv += ["--label", args.label or experiment.name]
    return [*argv, "--published", experiment.name]


def counted_argv(experiment: Published, counts: int) -> list[str]:
    """With --measure, what makes a matrix count a cost claim's configurations often enough to
    judge it (:mod:`layerbench.replicate.count_claims`), and their first requests when the claim
    is about them."""
    seed = experiment.experiment
    if not isinstance(seed, SeedExperiment) or not seed.counted:
        return []
    argv = ["--measure-counts", str(counts)]
    if seed.first_requests is not None:
        argv += ["--first-requests", str(seed.first_requests)]
    if seed.second_run is not None:
        argv += ["--second-run", str(seed.second_run)]
    if seed.settled is not None:
        argv += ["--settled", str(seed.settled)]
    return argv


def list_lines(experiments: tuple[Published, ...]) -> list[str]:
    """Per experiment: its name and what re-runs it; its post's title and year; its claim."""
    lines = []
    for experiment in experiments:
        lines.append(f"{experiment.name} (a {experiment.kind})")
        year = f", {experiment.year}"
        lines.append(f"{INDENT}{fitted(experiment.title, WIDTH - len(INDENT + year))}{year}")
        lines.append(f"{INDENT}{experiment.headline}")
    return lines


def columns(text: str) -> int:
    """The columns ``text`` takes on a terminal: a wide character (CJK) two."""
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def fitted(text: str, width: int) -> str:
    """``text``, shortened with … to at most ``width`` columns."""
    if columns(text) <= width:
        return text
    while columns(text) > width - 1:
        text = text[:-1]
    return text.rstrip() + "…"
