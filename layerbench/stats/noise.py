"""Whether a thing measured several times (a ladder's rung, a matrix's cell) is noisy, and what
was seen during its trials that may say why: the judgement, as figures. The sentences that say
it are the report's (:mod:`layerbench.render.noise_notes`).

One definition of a client-bound measurement serves the ladder, the matrix and the load
generator alike: the client's busiest thread on the CPU for at least ``CLIENT_BOUND_FRACTION``
of its wall time (``client_busiest_thread_cpu_fraction``, the figure the load generator warns
from itself, ``CLIENT_BOUND_CPU_FRACTION`` in load/src/results.rs). A thread that saturates
limits what the client can send whatever the rest of the process does; the client process's
CPU summed over its threads (the ladder's former test, 90 % of a core) says neither: two
threads half busy make 100 % of a core with neither saturated, and one saturated thread among
several idle ones may be far below it.
"""

from collections.abc import Sequence
from dataclasses import dataclass

from layerbench.stats.spread import Spread

# A rung or cell whose req/s spreads more than this (coefficient of variation) over its repeats
# is marked noisy.
NOISY_CV = 0.03
# The client's busiest thread this busy (of its wall time): it may be what limits the result.
CLIENT_BOUND_FRACTION = 0.9
# The rest of the machine busier than this (% of a core) during a trial may have disturbed it.
BUSY_OTHER_PERCENT = 10.0
# A virtual machine's CPU time taken by the hypervisor (steal) above this, % of a core.
STEAL_PERCENT = 2.0
# The CPU speed probe's CV over the trials above this: the machine changed speed.
SPEED_CV = 0.02


def client_bound(busiest_thread_fraction: float) -> bool:
    """The client's busiest thread was this busy: the client may be the bottleneck."""
    return busiest_thread_fraction >= CLIENT_BOUND_FRACTION


@dataclass(frozen=True)
class TrialSeen:
    """What one trial measured and what was seen during it."""

    requests_per_s: float
    # The load generator's busiest thread, its CPU time over its wall time.
    client_busiest_thread_fraction: float
    # The rest of the machine, and the hypervisor's steal, % of a core.
    other_cpu_percent: float
    steal_percent: float
    # The probe loop's rate on the server's CPUs just before, when measured.
    cpu_speed: float | None


@dataclass(frozen=True)
class SpeedChange:
    """The CPU's speed over the trials (the probe's CV), and req/s scaled by it."""

    probe_cv: float
    scaled_cv: float
    # req/s moved with the speed: scaled by it, they spread less than half as much.
    in_step: bool


@dataclass(frozen=True)
class NoiseDiagnosis:
    """Each cause that may have disturbed the trials, ``None`` when it did not show."""

    client_busiest_thread_fraction: float | None = None
    other_cpu_percent: float | None = None
    steal_percent: float | None = None
    speed_change: SpeedChange | None = None
    # The probe's CV when every trial had one (whether or not the speed changed).
    probe_cv: float | None = None

    @property
    def causes_seen(self) -> bool:
        return any(
            cause is not None
            for cause in (
                self.client_busiest_thread_fraction,
                self.other_cpu_percent,
                self.steal_percent,
                self.speed_change,
            )
        )


def rate_spread(trials: Sequence[TrialSeen]) -> Spread | None:
    """Of req/s over the trials."""
    rates = [trial.requests_per_s for trial in trials]
    return Spread.of(rates) if rates else None


def noisy(spread: Spread | None) -> bool:
    return spread is not None and spread.n > 1 and spread.cv > NOISY_CV


def speed_spread(trials: Sequence[TrialSeen]) -> Spread | None:
    """Of the CPU speed probe over the trials (when every trial has one)."""
    speeds = [trial.cpu_speed for trial in trials]
    if len(speeds) < 2 or any(speed is None or speed <= 0 for speed in speeds):
        return None
    return Spread.of([speed for speed in speeds if speed is not None])


def speed_scaled_cv(trials: Sequence[TrialSeen]) -> float | None:
    """The CV of req/s divided by the CPU's speed at each trial: how much the thing varied
    beyond what the machine's speed explains."""
    if speed_spread(trials) is None:
        return None
    return Spread.of([trial.requests_per_s / (trial.cpu_speed or 1.0) for trial in trials]).cv


def diagnose(trials: Sequence[TrialSeen]) -> NoiseDiagnosis:
    """What may have made the trials disagree, as seen during them."""
    busiest = max((trial.client_busiest_thread_fraction for trial in trials), default=0.0)
    other = max((trial.other_cpu_percent for trial in trials), default=0.0)
    steal = max((trial.steal_percent for trial in trials), default=0.0)
    speed = speed_spread(trials)
    scaled = speed_scaled_cv(trials)
    change = None
    if speed is not None and scaled is not None and speed.cv > SPEED_CV:
        spread = rate_spread(trials)
        in_step = spread is not None and scaled < spread.cv / 2
        change = SpeedChange(speed.cv, scaled, in_step)
    return NoiseDiagnosis(
        client_busiest_thread_fraction=busiest if client_bound(busiest) else None,
        other_cpu_percent=other if other > BUSY_OTHER_PERCENT else None,
        steal_percent=steal if steal > STEAL_PERCENT else None,
        speed_change=change,
        probe_cv=speed.cv if speed is not None else None,
    )
