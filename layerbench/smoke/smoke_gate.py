"""``smoke --measure instructions`` as one job: the baseline read and its conditions checked
before anything runs, then every URL counted. Whatever stops it before a count (valgrind or
gcc not installed, a URL not answering 2xx, the application failing under callgrind) is a
:class:`NothingMeasuredError`: nothing was measured, so nothing regressed."""

import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from layerbench.cost.cost_plan import DEFAULT_REQUESTS
from layerbench.cost.instructions_baseline import (
    InstructionsBaseline,
    counted_under,
    incomparable,
    package_changes,
    read_instructions_baseline,
)
from layerbench.errors import ConfigError, LayerbenchError, NothingMeasuredError
from layerbench.smoke.smoke_cost import InstructionsMeasurement, current_conditions, measure_urls


@dataclass(frozen=True)
class InstructionsSmoke:
    app: str
    urls: tuple[str, ...]
    app_path: tuple[str, ...]
    repeats: int
    requests: int = DEFAULT_REQUESTS
    # The caller's environment variables the application is given (--env).
    environment: tuple[str, ...] = ()


def passed_variables(names: list[str]) -> tuple[str, ...]:
    """``--env``'s names, each refused (ConfigError) when this environment does not set it."""
    unset = [name for name in names if name not in os.environ]
    if unset:
        raise ConfigError(f"--env {unset[0]}: not set in this environment")
    return tuple(dict.fromkeys(names))


def read_checked_baseline(
    path: Path, compare_anyway: bool, note: Callable[[str], None]
) -> InstructionsBaseline:
    """The baseline, refused (ConfigError) when counted by another interpreter or on another
    architecture, unless ``compare_anyway``; changed packages are noted."""
    baseline = read_instructions_baseline(path)
    try:
        now = counted_under(current_conditions())
    except LayerbenchError as error:
        raise NothingMeasuredError(error) from error
    found = incomparable(baseline.conditions, now)
    if found and not compare_anyway:
        raise ConfigError(
            f"{path} was counted under other conditions: {'; '.join(found)}; counts are "
            "comparable only on the same interpreter and architecture: measure a new baseline "
            "with --save (or compare anyway with --ignore-conditions)"
        )
    if found:
        note(f"compared anyway with {path}, counted under other conditions: {'; '.join(found)}")
    changed = package_changes(baseline.conditions, now)
    if changed:
        note("packages changed since the baseline: " + ", ".join(changed))
    return baseline


def count_urls(smoke: InstructionsSmoke) -> InstructionsMeasurement:
    try:
        return measure_urls(
            smoke.app,
            smoke.urls,
            smoke.app_path,
            repeats=smoke.repeats,
            requests=smoke.requests,
            passed=smoke.environment,
        )
    except ConfigError:
        raise
    except LayerbenchError as error:
        raise NothingMeasuredError(error) from error
