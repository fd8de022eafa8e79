"""Which of ``smoke``'s options each measure uses: one given where it would not be used is
refused, in one line, before anything starts, rather than silently ignored. The options whose
defaults hide whether they were given (``-d``, ``--warmup``, ``-c``, ``--requests``,
``--server``) default to None in the parser and are resolved here."""

import argparse

from layerbench.cost.cost_plan import DEFAULT_REQUESTS
from layerbench.errors import ConfigError

DEFAULT_SERVER = "gunicorn"
DEFAULT_DURATION_S = 2.0
DEFAULT_WARMUP_S = 0.5
DEFAULT_CONCURRENCY = 10

# Options of the req/s measure, by their attribute, with their spelling: a count of
# instructions has no trial duration, warm-up, connections, sampled profile, side-by-side
# reference, added passes nor undecided verdict.
REQUESTS_ONLY = {
    "against": "--against",
    "until_decided": "--until-decided",
    "max_time": "--max-time",
    "fail_inconclusive": "--fail-inconclusive",
    "profile": "--profile",
    "profile_diff": "--profile-diff",
    "duration": "-d/--duration",
    "warmup": "--warmup",
    "concurrency": "-c/--concurrency",
}
# Options of the instructions measure: a req/s run serves for a duration, not a number of
# requests, and runs its server in this whole environment.
INSTRUCTIONS_ONLY = {"requests": "--requests", "served": "--served", "env": "--env"}
# Options naming the server: used by the req/s measure, and by instructions with --served.
SERVER_OPTIONS = {"set": "--set", "server": "--server"}


def _given(args: argparse.Namespace, attribute: str) -> bool:
    value = getattr(args, attribute)
    return value not in (None, False, [])


def _first_given(args: argparse.Namespace, options: dict[str, str]) -> str | None:
    return next((flag for name, flag in options.items() if _given(args, name)), None)


def check_option_use(args: argparse.Namespace) -> None:
    """A ConfigError for the first option given that the chosen measure would not use."""
    if args.env and (args.measure != "instructions" or args.served):
        raise ConfigError(
            f"--env {args.env[0]}: the servers run in this whole environment; --env names "
            "what the in-process count (--measure instructions, without --served) is given"
        )
    if args.measure == "instructions":
        flag = _first_given(args, REQUESTS_ONLY)
        if flag is not None:
            raise ConfigError(
                f"{flag} goes with the req/s measure; --measure instructions counts "
                f"--requests per URL: leave {flag.split('/')[-1]} out"
            )
        server_flag = _first_given(args, SERVER_OPTIONS)
        if server_flag is not None and not args.served:
            given = f"--set {args.set[0]}" if args.set else f"--server {args.server}"
            raise ConfigError(
                f"--measure instructions calls the application in-process, under no server "
                f"and on its own SQLite file: {given} would not be measured; leave it out"
            )
        return
    flag = _first_given(args, INSTRUCTIONS_ONLY)
    if flag is not None:
        raise ConfigError(f"{flag} counts instructions: give --measure instructions")


def resolve_defaults(args: argparse.Namespace) -> None:
    """The options left unset take their defaults, once their use is checked."""
    defaults = {
        "server": DEFAULT_SERVER,
        "duration": DEFAULT_DURATION_S,
        "warmup": DEFAULT_WARMUP_S,
        "concurrency": DEFAULT_CONCURRENCY,
        "requests": DEFAULT_REQUESTS,
    }
    for attribute, default in defaults.items():
        if getattr(args, attribute) is None:
            setattr(args, attribute, default)
