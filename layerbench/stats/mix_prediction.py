"""A mixed load's rate predicted from its two kinds of request measured alone, against the mix
measured: seed 000's "a 90 % hit ratio on the cache and 10 % expensive processing".

A server busy with a mix spends, per request, the hit's time share of the hit's cost and the
rest of the miss's: per-request costs add up, so rates combine harmonically,

    rate(mix) = 1 / (h / rate(hit) + (1 - h) / rate(miss)),

which holds as long as neither kind of request changes the other's cost (a shared cache, a
lock, the CPU's caches). Each interval resamples the trials of each (a 95 % bootstrap).
"""

from collections.abc import Sequence
from dataclasses import dataclass

from layerbench.stats.median import median
from layerbench.stats.spread import Spread, bootstrap


def predict_rate(hit_ratio: float, hit_rate: float, miss_rate: float) -> float:
    """Requests per second of the mix: per-request times add up, so rates add harmonically."""
    return 1.0 / (hit_ratio / hit_rate + (1.0 - hit_ratio) / miss_rate)


@dataclass(frozen=True)
class MixOutcome:
    """The prediction from the two rungs against the mix measured, with 95 % bootstrap
    intervals over the trials of each."""

    hit_ratio: float
    hit: str
    miss: str
    hit_rate: float
    miss_rate: float
    predicted_rate: float
    predicted_interval: tuple[float, float]
    # The mix's rate (the median of its trials'), and the spread of its trials.
    measured_rate: float
    measured: Spread
    # predicted / measured - 1: positive when the prediction was too high.
    error: float
    error_interval: tuple[float, float]
    # The hit share of the mix's completed requests, as the load generator counted them.
    measured_hit_share: float | None

    @property
    def significant(self) -> bool:
        """The error's interval leaves out 0: the prediction missed beyond the noise."""
        low, high = self.error_interval
        return low > 0 or high < 0


@dataclass(frozen=True)
class Measured:
    """A rung as the prediction uses it: its name, its rate as shown (the median of its
    trials', :mod:`layerbench.stats.median`) and each trial's."""

    name: str
    rate: float
    trial_rates: Sequence[float]


def predict_mix(
    hit_ratio: float, hit: Measured, miss: Measured, mix: Measured, hit_share: float | None
) -> MixOutcome:
    """The outcome of a mix of ``hit_ratio`` hits; ``hit_share``: the hits' share of the mix's
    completed requests, when counted."""
    hits, misses, mixes = (list(rung.trial_rates) for rung in (hit, miss, mix))

    def predicted(sample: list[float], other: list[float]) -> float:
        return predict_rate(hit_ratio, median(sample), median(other))

    prediction = predict_rate(hit_ratio, hit.rate, miss.rate)
    return MixOutcome(
        hit_ratio=hit_ratio,
        hit=hit.name,
        miss=miss.name,
        hit_rate=hit.rate,
        miss_rate=miss.rate,
        predicted_rate=prediction,
        predicted_interval=bootstrap(lambda resample: predicted(resample(hits), resample(misses))),
        measured_rate=mix.rate,
        measured=Spread.of(mixes),
        error=prediction / mix.rate - 1.0,
        error_interval=bootstrap(
            lambda resample: (
                predicted(resample(hits), resample(misses)) / median(resample(mixes)) - 1.0
            )
        ),
        measured_hit_share=hit_share,
    )
