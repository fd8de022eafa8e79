"""A thing measured several times, in trials interleaved with the others: a ladder's rung, a
matrix's cell. Its figures are those of its median trial (by req/s); how far the trials spread
(stats/spread.py) says whether it is noisy, and what was seen during them may say why."""

from dataclasses import dataclass

from layerbench.lab.loadgen import LoadFigures, LoadResult
from layerbench.lab.sampler import Usage
from layerbench.roles import CLIENT_ROLE
from layerbench.stats.spread import Spread

# At most this many trials of one thing.
MAX_REPEATS = 100
# A rung or cell whose req/s spreads more than this (coefficient of variation) over its repeats is
# marked noisy.
NOISY_CV = 0.03
# The rest of the machine busier than this (% of a core) during a trial may have disturbed it.
BUSY_OTHER_PERCENT = 10.0
CLIENT_BOUND_PERCENT = 90.0
# A virtual machine's CPU time taken by the hypervisor (steal) above this, % of a core.
STEAL_PERCENT = 2.0
# The CPU speed probe's CV over the trials above this: the machine changed speed.
SPEED_CV = 0.02


@dataclass(frozen=True)
class Trial:
    """One measurement: the load and what every process cost."""

    load: LoadResult
    usage: Usage
    # The probe loop's rate on the server's CPUs just before (lab.cpu_speed), when measured.
    cpu_speed: float | None = None


class Repeated(LoadFigures):
    """The trials of a frozen dataclass that holds them (``trials``), and what they say."""

    trials: tuple[Trial, ...]

    @property
    def median_trial(self) -> Trial | None:
        if not self.trials:
            return None
        ranked = sorted(self.trials, key=lambda trial: trial.load.requests_per_s)
        return ranked[(len(ranked) - 1) // 2]

    @property
    def load(self) -> LoadResult | None:  # type: ignore[override]
        trial = self.median_trial
        return trial.load if trial else None

    @property
    def usage(self) -> Usage | None:
        trial = self.median_trial
        return trial.usage if trial else None

    @property
    def spread(self) -> Spread | None:
        """Of req/s over the repeats."""
        rates = [trial.load.requests_per_s for trial in self.trials]
        return Spread.of(rates) if rates else None

    @property
    def cpu_speed_spread(self) -> Spread | None:
        """Of the CPU speed probe over the repeats (when every trial has one)."""
        speeds = [trial.cpu_speed for trial in self.trials]
        if len(speeds) < 2 or any(speed is None or speed <= 0 for speed in speeds):
            return None
        return Spread.of([speed for speed in speeds if speed is not None])

    @property
    def speed_scaled_cv(self) -> float | None:
        """The CV of req/s divided by the CPU's speed at each trial: how much the rung varied
        beyond what the machine's speed explains."""
        if self.cpu_speed_spread is None:
            return None
        return Spread.of(
            [trial.load.requests_per_s / (trial.cpu_speed or 1.0) for trial in self.trials]
        ).cv

    @property
    def noisy(self) -> bool:
        spread = self.spread
        return spread is not None and spread.n > 1 and spread.cv > NOISY_CV

    def noise_causes(self) -> list[str]:
        """What may have made the repeats disagree, as seen during them."""
        causes = []
        client = [
            role.cpu_percent
            for trial in self.trials
            if (role := trial.usage.roles.get(CLIENT_ROLE)) is not None
        ]
        if client and max(client) >= CLIENT_BOUND_PERCENT:
            causes.append(f"the client was the bottleneck (up to {max(client):.0f} % of a core)")
        other = max((trial.usage.other_cpu_percent for trial in self.trials), default=0.0)
        if other > BUSY_OTHER_PERCENT:
            causes.append(f"other processes were busy (up to {other:.0f} % of a core)")
        steal = max((trial.usage.steal_percent for trial in self.trials), default=0.0)
        if steal > STEAL_PERCENT:
            causes.append(f"the hypervisor took CPU time away (steal up to {steal:.0f} %)")
        speed = self.cpu_speed_spread
        scaled = self.speed_scaled_cv
        if speed is not None and scaled is not None and speed.cv > SPEED_CV:
            probe = f"{100 * speed.cv:.1f} % CV of a probe loop before each trial"
            spread = self.spread
            if spread is not None and scaled < spread.cv / 2:
                causes.append(
                    f"the CPU's speed varied with it ({probe}; req/s scaled by it vary by only "
                    f"{100 * scaled:.1f} %)"
                )
            else:
                causes.append(
                    f"the CPU's speed varied ({probe}), though not in step with req/s (scaled "
                    f"by it they vary by {100 * scaled:.1f} %): it changes faster than a trial"
                )
        return causes
