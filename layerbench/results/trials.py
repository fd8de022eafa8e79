"""A thing measured several times, in trials interleaved with the others: a ladder's rung, a
matrix's cell. Its req/s is the median of its trials', the figures that cannot be averaged
across trials (latency, errors, CPU, memory, the whole load result) its representative trial's:
one rule for both, :mod:`layerbench.stats.median`. How far the trials spread and what was seen
during them (:mod:`layerbench.stats.noise`) say whether it is noisy, and may say why."""

from dataclasses import dataclass

from layerbench.results.load_result import LoadFigures, LoadResult
from layerbench.results.usage import Usage
from layerbench.stats import noise
from layerbench.stats.median import median, representative_index
from layerbench.stats.spread import Spread

# At most this many trials of one thing.
MAX_REPEATS = 100


@dataclass(frozen=True)
class Trial:
    """One measurement: the load and what every process cost."""

    load: LoadResult
    usage: Usage
    # The probe loop's rate on the server's CPUs just before (lab.cpu_speed), when measured.
    cpu_speed: float | None = None

    @property
    def seen(self) -> noise.TrialSeen:
        return noise.TrialSeen(
            requests_per_s=self.load.requests_per_s,
            client_busiest_thread_fraction=self.load.client_busiest_thread_cpu_fraction,
            other_cpu_percent=self.usage.other_cpu_percent,
            steal_percent=self.usage.steal_percent,
            cpu_speed=self.cpu_speed,
        )


class Repeated(LoadFigures):
    """The trials of a frozen dataclass that holds them (``trials``), and what they say."""

    trials: tuple[Trial, ...]

    @property
    def representative_index(self) -> int | None:
        """Which trial's latency, errors and costs are shown: the one nearest the median."""
        if not self.trials:
            return None
        return representative_index([trial.load.requests_per_s for trial in self.trials])

    @property
    def representative_trial(self) -> Trial | None:
        index = self.representative_index
        return None if index is None else self.trials[index]

    @property
    def requests_per_s(self) -> float | None:
        """The median of the trials' req/s (the centre of :attr:`spread`'s interval)."""
        if not self.trials:
            return None
        return median([trial.load.requests_per_s for trial in self.trials])

    @property
    def load(self) -> LoadResult | None:  # type: ignore[override]
        trial = self.representative_trial
        return trial.load if trial else None

    @property
    def usage(self) -> Usage | None:
        trial = self.representative_trial
        return trial.usage if trial else None

    @property
    def spread(self) -> Spread | None:
        """Of req/s over the repeats."""
        return noise.rate_spread([trial.seen for trial in self.trials])

    @property
    def cpu_speed_spread(self) -> Spread | None:
        """Of the CPU speed probe over the repeats (when every trial has one)."""
        return noise.speed_spread([trial.seen for trial in self.trials])

    @property
    def speed_scaled_cv(self) -> float | None:
        """The CV of req/s divided by the CPU's speed at each trial."""
        return noise.speed_scaled_cv([trial.seen for trial in self.trials])

    @property
    def noisy(self) -> bool:
        return noise.noisy(self.spread)

    @property
    def client_bound(self) -> bool:
        """The representative trial's client may have been what limited it."""
        return self.load is not None and self.load.client_bound

    def diagnosis(self) -> noise.NoiseDiagnosis:
        """What may have made the repeats disagree, as seen during them."""
        return noise.diagnose([trial.seen for trial in self.trials])
