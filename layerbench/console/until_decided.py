"""``--until-decided [--max-time SECONDS]``, as every command that can keep adding interleaved
passes has it (smoke ``--against``, matrix, ladder, replicate), and the glue between a run's
comparisons and the looks of :class:`layerbench.stats.sequential.Looks`: the one accounting of
the repeated looks, whatever the command."""

import argparse
from collections.abc import Callable, Iterable
from typing import Protocol, TypeVar

from layerbench.console.numbers import seconds
from layerbench.errors import ConfigError
from layerbench.stats.sequential import DEFAULT_MAX_TIME_S, Looks, LooksMade


class Decidable(Protocol):
    @property
    def decided(self) -> bool: ...


def add_until_decided_arguments(parser: argparse.ArgumentParser, compared: str) -> None:
    """``compared``: what must be decided, in the help's words ("every URL")."""
    parser.add_argument(
        "--until-decided",
        action="store_true",
        help=f"after --repeats passes, keep adding interleaved passes until {compared} is "
        "decided or --max-time is up; each look at a stricter interval (the 5 %% error rate "
        "shared across the looks)",
    )
    parser.add_argument(
        "--max-time",
        type=seconds(),
        metavar="SECONDS",
        help=f"with --until-decided: add no pass after this long ({DEFAULT_MAX_TIME_S:g})",
    )


def looks_of(args: argparse.Namespace) -> Looks | None:
    """The looks ``--until-decided`` asks for, their clock started; None without it. A
    ConfigError for --max-time without --until-decided."""
    if not args.until_decided:
        if args.max_time is not None:
            raise ConfigError("--max-time goes with --until-decided")
        return None
    return Looks(DEFAULT_MAX_TIME_S if args.max_time is None else args.max_time)


def until_decided_argv(args: argparse.Namespace) -> list[str]:
    """The options as given, to pass on to the command a replication runs."""
    argv = ["--until-decided"] if args.until_decided else []
    if args.max_time is not None:
        argv += ["--max-time", format(args.max_time, "g")]
    return argv


def undecided(comparisons: Iterable[Decidable | None]) -> tuple[int, int]:
    """How many of the comparisons (None: nothing to compare) are undecided, and of how many."""
    present = [comparison for comparison in comparisons if comparison is not None]
    return sum(1 for comparison in present if not comparison.decided), len(present)


class PassedResult(Protocol):
    """A run's result that adds passes: how many it has, and the looks made at its end."""

    @property
    def passes(self) -> int: ...

    until_decided: LooksMade | None


Result = TypeVar("Result", bound=PassedResult)


def passes_until_decided(
    looks: Looks | None, undecided_at: Callable[[Result, float], tuple[int, int]]
) -> tuple[Callable[[Result, int], bool] | None, Callable[[Result], None]]:
    """--until-decided's question after each pass (None without it: no pass is added), and
    what records the looks made in the result before its last save. ``undecided_at``: how
    many of a result's comparisons are undecided at a confidence, and of how many."""
    if looks is None:
        return None, _no_looks

    def enough(result: Result, passes: int) -> bool:
        return looks.enough(passes, lambda confidence: undecided_at(result, confidence))

    def conclude(result: Result) -> None:
        passes = result.passes
        left, compared = undecided_at(result, looks.final_confidence(passes))
        result.until_decided = looks.made(passes, compared - left, compared)

    return enough, conclude


def _no_looks(result: PassedResult) -> None:
    """Without --until-decided: no looks to record in the result."""
