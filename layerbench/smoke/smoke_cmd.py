"""``layerbench smoke package.module:application --baseline perf.json [--save]`` or ``--against
REF``: a performance smoke test for CI. Exit 0 when no URL regressed (an undecided URL is a
warning: too few trials, or an interval that spans both; exit 3 for it with
``--fail-inconclusive``), 1 when one regressed (the run says which and by how much), 2 when
nothing could be measured or compared: a usage error, an application that does not load, a
server that does not start, a URL that does not answer 2xx, a baseline measured under other
conditions. A typo never fails a build as a regression, and neither does noise.

``--against REF`` measures the reference's application (a git ref checked out into a temporary
worktree, or a directory) and the candidate side by side in one run, their passes paired, as
asv's ``continuous`` does: the machine's drift between passes cancels, which a baseline stored
from another run cannot do."""

import argparse
import sys
from pathlib import Path
from typing import Any

from layerbench.console.numbers import (
    MAX_CONCURRENCY,
    MAX_COUNTED_REQUESTS,
    MAX_REPEATS,
    real,
    seconds,
    whole,
)
from layerbench.console.until_decided import add_until_decided_arguments, looks_of, undecided
from layerbench.console.variable_name import variable_name
from layerbench.cost.cost_plan import DEFAULT_REQUESTS
from layerbench.errors import ConfigError
from layerbench.profile.layer_text import layer_table
from layerbench.profile.pyspy_record import check_profiling
from layerbench.profile.rung_profile import RungProfile
from layerbench.servers.server_settings import add_assignments
from layerbench.sites import check_importable
from layerbench.smoke.smoke import Enough, SmokeOptions
from layerbench.smoke.smoke_baseline import baseline_document, read_baseline
from layerbench.smoke.smoke_instructions import smoke_instructions
from layerbench.smoke.smoke_option_use import (
    DEFAULT_CONCURRENCY,
    DEFAULT_DURATION_S,
    DEFAULT_SERVER,
    DEFAULT_WARMUP_S,
    check_option_use,
    resolve_defaults,
)
from layerbench.smoke.smoke_profiles import (
    baseline_profiles,
    check_profile_diff,
    profile_changes,
    with_profiles,
)
from layerbench.smoke.smoke_result import (
    EXIT_STATUSES,
    MIN_TRIALS,
    Verdict,
    check_in_baseline,
    exit_status,
    judge,
    judge_paired,
)
from layerbench.smoke.smoke_run import BaselineToMeet, run_smoke, run_smoke_against
from layerbench.smoke.smoke_table import saved_line, verdict_lines
from layerbench.stats.paired import CONFIDENCE
from layerbench.stats.sequential import Looks
from layerbench.store.document_file import check_writable, write_document

DEFAULT_TOLERANCE = 0.10


def add_parser(commands: Any) -> None:
    parser = commands.add_parser(
        "smoke",
        help="a performance smoke test of your WSGI application against a baseline",
        description="Run package.module:application under a server adapter, measure each URL "
        "with interleaved repeats, and compare with the baseline (--baseline FILE), or with "
        "the reference's application measured side by side in the same run (--against REF). "
        f"A verdict needs at least {MIN_TRIALS} repeats; with fewer it is inconclusive.",
        epilog=EXIT_STATUSES,
    )
    parser.add_argument("app", help="the WSGI application, package.module:callable")
    parser.add_argument("--url", action="append", help="a path to measure (repeatable; /)")
    parser.add_argument("--baseline", type=Path, help="the baseline JSON file")
    parser.add_argument(
        "--against",
        metavar="REF",
        help="compare with the application at a git ref (checked out into a temporary "
        "worktree, removed after) or in a directory, measured side by side in this run",
    )
    add_until_decided_arguments(parser, "every URL (with --against only)")
    parser.add_argument(
        "--fail-inconclusive",
        action="store_true",
        help="exit 3 when no URL regressed but one could not be decided (else a warning, exit 0)",
    )
    parser.add_argument("--save", action="store_true", help="measure and save the baseline")
    parser.add_argument("--server", help=f"the server adapter ({DEFAULT_SERVER})")
    parser.add_argument("--set", action="append", default=[], metavar="SERVER.KEY=VALUE")
    parser.add_argument(
        "--repeats", type=whole(1, MAX_REPEATS), default=5, help="trials per URL (5)"
    )
    parser.add_argument(
        "-d", "--duration", type=seconds(), help=f"seconds per trial ({DEFAULT_DURATION_S:g})"
    )
    parser.add_argument(
        "--warmup",
        type=seconds(zero=True),
        help=f"seconds of warm-up ({DEFAULT_WARMUP_S:g})",
    )
    parser.add_argument(
        "-c",
        "--concurrency",
        type=whole(1, MAX_CONCURRENCY),
        help=f"connections ({DEFAULT_CONCURRENCY})",
    )
    parser.add_argument(
        "--tolerance",
        type=real(0, 1),
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
        type=whole(1, MAX_COUNTED_REQUESTS),
        help=f"--measure instructions: requests counted per URL and repeat ({DEFAULT_REQUESTS})",
    )
    parser.add_argument(
        "--served",
        action="store_true",
        help="--measure instructions: count each URL under the server (--server, --set), every "
        "process of it, instead of the application called alone (docs/guides/cost.md)",
    )
    parser.add_argument(
        "--env",
        action="append",
        default=[],
        metavar="NAME",
        type=variable_name,
        help="--measure instructions: a variable of this environment the application reads "
        "(repeatable); the counted process is given no other, so that a count does not "
        "depend on the environment it was made in",
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
    parser.add_argument(
        "--profile",
        action="store_true",
        help="sample the server's Python workers with py-spy during each trial: per URL, "
        "where its CPU goes by layer (your application, the frameworks, the server…)",
    )
    parser.add_argument(
        "--profile-diff",
        type=Path,
        metavar="FILE.svg",
        help="with --profile, against a baseline saved with --profile (or --against): write "
        "each URL's difference flame graph, now against the baseline, there (the URL in its "
        "name when there are several), and print the layers and functions that grew most",
    )
    parser.set_defaults(handler=cmd_smoke)


def cmd_smoke(args: argparse.Namespace) -> int:
    check_option_use(args)
    resolve_defaults(args)
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
        profile=_profiling(args.profile),
    )
    check_importable(options.app, [str(Path(p).resolve()) for p in options.app_path])
    if args.against is not None:
        if args.save or args.baseline is not None:
            raise ConfigError("--against measures its own baseline: no --baseline or --save")
        _warn_few(options.repeats)
        looks = looks_of(args)
        enough = _enough(looks, options.tolerance) if looks else None
        check_profile_diff(args.profile_diff, options.profile, None)
        side_by_side = run_smoke_against(options, args.against, enough)
        passes = _passes(side_by_side.now)
        confidence = looks.final_confidence(passes) if looks else CONFIDENCE
        verdicts = judge_paired(
            side_by_side.before, side_by_side.now, options.tolerance, confidence
        )
        print(f"now against {side_by_side.reference}, measured side by side (paired passes):")
        if looks:
            left, compared = undecided(verdicts)
            print(looks.made(passes, compared - left, compared).summary())
        print("\n".join(verdict_lines(verdicts, options.tolerance, side_by_side.reference)))
        before, now = side_by_side.profiles_before, side_by_side.profiles_now
        reference = side_by_side.reference
        _print_profiles(
            [
                *[(f"{url} ({reference})", profile) for url, profile in before.items()],
                *[(f"{url} (now)", profile) for url, profile in now.items()],
            ]
        )
        _print_lines(profile_changes(before, now, args.profile_diff, reference))
        return _exit(verdicts, args.fail_inconclusive)
    if args.until_decided or args.max_time is not None:
        raise ConfigError(
            "--until-decided needs --against REF: a stored baseline has no passes to add"
        )
    if args.baseline is None:
        raise ConfigError(
            "smoke needs --baseline FILE (with --save to measure it) or --against REF"
        )
    if args.save:
        check_writable(args.baseline, "the baseline")
    else:
        _warn_few(options.repeats)
    against = None
    profiles_before = None if args.save else baseline_profiles(args.baseline)
    check_profile_diff(args.profile_diff, options.profile, profiles_before, saving=args.save)
    if not args.save:
        against = BaselineToMeet(
            read_baseline(args.baseline), args.baseline, args.ignore_conditions
        )
        check_in_baseline(against.baseline.rates, options.urls)
    measured = run_smoke(options, against, _note)
    if against is None:
        document = baseline_document(options.app, measured.conditions, measured.rates)
        write_document(with_profiles(document, measured.profiles), args.baseline)
        print(saved_line(args.baseline, measured.rates))
        _print_profiles(list(measured.profiles.items()))
        return 0
    verdicts = judge(against.baseline.rates, measured.rates, options.tolerance)
    print("\n".join(verdict_lines(verdicts, options.tolerance)))
    _print_profiles(list(measured.profiles.items()))
    _print_lines(profile_changes(profiles_before or {}, measured.profiles, args.profile_diff))
    return _exit(verdicts, args.fail_inconclusive)


def _profiling(asked: bool) -> bool:
    """``--profile``, refused before anything starts when py-spy cannot sample."""
    if asked:
        check_profiling()
    return asked


def _print_profiles(profiles: list[tuple[str, RungProfile]]) -> None:
    """``--profile``: each URL's layers (as ``ladder --profile`` shows a rung's)."""
    for label, profile in profiles:
        print("\n" + "\n".join(layer_table(label, profile)))


def _print_lines(lines: list[str]) -> None:
    if lines:
        print("\n".join(lines))


def _enough(looks: Looks, tolerance: float) -> Enough:
    """``--until-decided``'s question after each pass from the last of ``--repeats`` on: every
    URL's paired verdict at the look's confidence, enough when all are decided or the time
    is up (:class:`~layerbench.stats.sequential.Looks`)."""

    def enough(before: dict[str, list[float]], now: dict[str, list[float]]) -> bool:
        return looks.enough(
            _passes(now),
            lambda confidence: undecided(judge_paired(before, now, tolerance, confidence)),
        )

    return enough


def _passes(rates: dict[str, list[float]]) -> int:
    return min((len(values) for values in rates.values()), default=0)


def _warn_few(repeats: int) -> None:
    if repeats < MIN_TRIALS:
        print(
            f"layerbench: warning: {repeats} repeats, fewer than the {MIN_TRIALS} a verdict "
            "needs: every URL will be inconclusive",
            file=sys.stderr,
        )


def _exit(verdicts: list[Verdict], fail_inconclusive: bool) -> int:
    undecided = [verdict.url for verdict in verdicts if not verdict.decided]
    if undecided and not any(verdict.regressed for verdict in verdicts):
        print(
            f"layerbench: warning: inconclusive: {', '.join(undecided)}"
            + ("" if fail_inconclusive else " (not a failure; --fail-inconclusive makes it one)"),
            file=sys.stderr,
        )
    return exit_status(verdicts, fail_inconclusive)


def _note(text: str) -> None:
    print(f"layerbench: note: {text}", file=sys.stderr)
