"""A smoke test's measurement as one job, on the run skeleton's start and run space
(:mod:`layerbench.lab.run_skeleton`; nothing is saved before the end: a baseline is whole or
not written): the application served under its adapter in a temporary directory, the
conditions compared with the baseline's, every URL verified, then measured with interleaved
repeats; or, with ``--against``, the reference's application beside
it, both measured in the same passes (:func:`run_smoke_against`).

What stops it before the first trial (no load generator, a server not installed or not
starting, a URL not answering 2xx) is a :class:`NothingMeasuredError`: nothing was measured, so
nothing regressed, and a build is not failed as if it had. What stops it once the trials have
begun (the server dies, the load generator fails, requests fail) is a
:class:`MeasurementFailedError`, with an exit status of its own: neither a regression nor a
usage error."""

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TypeVar

from layerbench.errors import (
    ConfigError,
    LayerbenchError,
    LoadGeneratorError,
    MeasurementFailedError,
    MissingPackageError,
    NothingMeasuredError,
    ServerStartError,
    VerificationError,
)
from layerbench.lab.run_skeleton import RunStart, run_space, start_run
from layerbench.profile.rung_profile import RungProfile
from layerbench.smoke.reference_checkout import reference_checkout
from layerbench.smoke.smoke import (
    Enough,
    SmokeOptions,
    measure,
    measure_side_by_side,
    prepare,
    verify,
)
from layerbench.smoke.smoke_baseline import Baseline
from layerbench.smoke.smoke_conditions import SmokeConditions, differences

T = TypeVar("T")
# Raised before the first trial.
NOT_MEASURED = (MissingPackageError, ServerStartError, VerificationError)


@dataclass(frozen=True)
class SmokeMeasurement:
    conditions: SmokeConditions
    rates: dict[str, list[float]]  # every URL's req/s, one per repeat
    # `--profile`: every URL's profile over its trials.
    profiles: dict[str, RungProfile] = field(default_factory=dict)


@dataclass(frozen=True)
class BaselineToMeet:
    """The baseline a run is compared with, where it was read from, and whether it is compared
    with even when measured under other conditions (``--ignore-conditions``)."""

    baseline: Baseline
    path: Path
    compare_anyway: bool = False


def run_smoke(
    options: SmokeOptions, against: BaselineToMeet | None, note: Callable[[str], None]
) -> SmokeMeasurement:
    """Measures ``options``' URLs; ``note`` is told what the user should know of the comparison
    to come (an older baseline, other conditions compared anyway)."""
    start = _start()
    if against is not None and against.baseline.note:
        note(against.baseline.note)
    with run_space("layerbench-smoke-") as (workdir, _):
        try:
            setup = prepare(options, start, workdir)
            if against is not None:
                _check_conditions(against, setup.conditions, note)
            with setup.deployment:
                verify(setup)
                rates = _measured(lambda: measure(setup))
        except NOT_MEASURED as error:
            raise NothingMeasuredError(error) from error
    return SmokeMeasurement(setup.conditions, rates, setup.profiles)


@dataclass(frozen=True)
class SideBySide:
    """``smoke --against``: every URL's req/s under the reference's application (``before``)
    and the candidate (``now``), pass i of each measured in the same pass."""

    conditions: SmokeConditions
    before: dict[str, list[float]]
    now: dict[str, list[float]]
    # What the reference is: "main (3f2a9c1d0b7e)".
    reference: str
    # `--profile`: every URL's profile under each.
    profiles_before: dict[str, RungProfile] = field(default_factory=dict)
    profiles_now: dict[str, RungProfile] = field(default_factory=dict)


def run_smoke_against(
    options: SmokeOptions, against: str, enough: Enough | None = None
) -> SideBySide:
    """Measures ``options``' application and the reference's (a git ref checked out into a
    temporary worktree, or a directory) side by side: both served at once under the same
    server and settings, on the same CPUs, their trials interleaved pass by pass."""
    start = _start()
    with (
        run_space("layerbench-smoke-") as (workdir, _),
        reference_checkout(against, options.app_path, workdir) as reference,
    ):
        try:
            old = replace(options, app_path=reference.app_path)
            before = prepare(old, start, workdir / "before")
            now = prepare(options, start, workdir / "now")
            with before.deployment, now.deployment:
                verify(before)
                verify(now)
                rates_before, rates_now = _measured(
                    lambda: measure_side_by_side(before, now, enough)
                )
        except NOT_MEASURED as error:
            raise NothingMeasuredError(error) from error
    return SideBySide(
        now.conditions,
        rates_before,
        rates_now,
        reference.description,
        before.profiles,
        now.profiles,
    )


def _start() -> RunStart:
    """The run skeleton's start (:func:`~layerbench.lab.run_skeleton.start_run`): the CPUs
    planned, the load generator found (without it nothing is measured), the machine's
    conditions."""
    try:
        return start_run(pin=True)
    except LoadGeneratorError as error:
        raise NothingMeasuredError(error) from error


def _measured(measuring: Callable[[], T]) -> T:
    """What ``measuring`` measured; a MeasurementFailedError when it fails (a usage error
    found on the way stays one)."""
    try:
        return measuring()
    except ConfigError:
        raise
    except LayerbenchError as error:
        raise MeasurementFailedError(error) from error


def _check_conditions(
    against: BaselineToMeet, now: SmokeConditions, note: Callable[[str], None]
) -> None:
    """Refuses a baseline measured under other conditions, unless told to compare anyway."""
    found = differences(against.baseline.conditions, now)
    if not found:
        return
    how = "; ".join(found)
    if not against.compare_anyway:
        raise ConfigError(
            f"{against.path} was measured under other conditions: {how}; measure a new "
            "baseline with --save, or compare anyway with --ignore-conditions"
        )
    note(f"compared anyway with {against.path}, measured under other conditions: {how}")
