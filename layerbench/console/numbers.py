"""The numeric options of every command, checked when the command line is parsed: each a finite
number (no ``nan``, no ``inf``) of its kind within its range, or argparse's one-line usage
error, exit 2, before anything starts. ``ladder -d nan`` was a ValueError after the server had
started, ``-d inf`` an OverflowError, ``-c 99999999999`` a server started for nothing.

    parser.add_argument("-c", type=whole(1, MAX_CONCURRENCY))
    parser.add_argument("-d", type=seconds())
"""

import argparse
import math
from collections.abc import Callable

from layerbench.lab.loadgen import MAX_CONCURRENCY
from layerbench.results.trials import MAX_REPEATS
from layerbench.servers.server_settings import MAX_PROCESSES, MAX_THREADS

__all__ = [
    "MAX_CONCURRENCY",
    "MAX_COUNT",
    "MAX_COUNTED_REQUESTS",
    "MAX_PORT",
    "MAX_PROCESSES",
    "MAX_REPEATS",
    "MAX_RUN_ID",
    "MAX_SECONDS",
    "MAX_THREADS",
    "real",
    "seconds",
    "whole",
]
# A trial, a warm-up or a phase of a run: a day is more than any run measures.
MAX_SECONDS = 86_400.0
# A run's number in the results database (SQLite's INTEGER PRIMARY KEY).
MAX_RUN_ID = 2**63 - 1
MAX_PORT = 65_535
# Requests counted under callgrind, per rung and repeat (cost/cost_plan.py's bound).
MAX_COUNTED_REQUESTS = 100_000
# Objects, commits or writes of a run of writers.
MAX_COUNT = 1_000_000


def whole(low: int, high: int) -> Callable[[str], int]:
    """A whole number from ``low`` to ``high``."""

    def parse(text: str) -> int:
        try:
            value = int(text.strip(), 10)
        except ValueError:
            value = None
        if value is None or not low <= value <= high:
            raise argparse.ArgumentTypeError(
                f"{_shown(text)} is not a whole number from {low:,} to {high:,}"
            )
        return value

    parse.__name__ = "whole number"
    return parse


def real(low: float, high: float) -> Callable[[str], float]:
    """A finite number from ``low`` to ``high``, both included."""

    def parse(text: str) -> float:
        value = _finite(text)
        if value is None or not low <= value <= high:
            raise argparse.ArgumentTypeError(
                f"{_shown(text)} is not a number from {low:g} to {high:g}"
            )
        return value

    parse.__name__ = "number"
    return parse


def seconds(*, zero: bool = False, high: float = MAX_SECONDS) -> Callable[[str], float]:
    """Seconds, more than 0 (or 0 too when ``zero``) and at most ``high``."""

    def parse(text: str) -> float:
        value = _finite(text)
        if value is None or not (value >= 0 if zero else value > 0) or value > high:
            least = "from 0 to" if zero else "more than 0 and at most"
            raise argparse.ArgumentTypeError(
                f"{_shown(text)} is not a number of seconds {least} {high:,g}"
            )
        return value

    parse.__name__ = "seconds"
    return parse


def _finite(text: str) -> float | None:
    try:
        value = float(text)
    except ValueError:
        return None
    return value if math.isfinite(value) else None


def _shown(text: str) -> str:
    return repr(text if len(text) <= 40 else text[:37] + "...")
