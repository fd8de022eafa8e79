"""A mixed load, predicted and measured: seed 000's "a 90 % hit ratio on the cache and 10 %
expensive processing".

The prediction comes from the two rungs measured alone. A server busy with a mix spends, per
request, the hit's time share of the hit's cost and the rest of the miss's: per-request costs
add up, so rates combine harmonically,

    rate(mix) = 1 / (h / rate(hit) + (1 - h) / rate(miss)),

which holds as long as neither kind of request changes the other's cost (a shared cache, a
lock, the CPU's caches). The mixed load itself is a rung whose requests go to both URLs in the
ratio (the load generator's ``--urls``), measured in the same interleaved passes as the two.
"""

import statistics
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from layerbench.errors import ConfigError
from layerbench.rungs.definitions import Rung, Stack
from layerbench.results.ladder_result import LadderResult, RungResult
from layerbench.stats.spread import Spread, bootstrap
from layerbench.words import counted

DEFAULT_HIT = "cached-page"
DEFAULT_MISS = "page"
# The ratio is written as whole weights: 0.9 is 9:1, 0.333 is 1:2, at most 1000 in all.
MAX_WEIGHTS = 1000


@dataclass(frozen=True)
class MixOptions:
    hit_ratio: float
    hit: str = DEFAULT_HIT
    miss: str = DEFAULT_MISS

    def __post_init__(self) -> None:
        if not 0.0 < self.hit_ratio < 1.0:
            raise ConfigError(
                f"the hit ratio must be between 0 and 1 (0.9 for 90 %), not {self.hit_ratio:g}"
            )
        if self.hit == self.miss:
            raise ConfigError(f"the hit and the miss are both {self.hit}; name two rungs")

    @property
    def weights(self) -> tuple[int, int]:
        """The hit's and the miss's whole weights, the nearest ratio with a sum ≤ 1000."""
        ratio = Fraction(self.hit_ratio).limit_denominator(MAX_WEIGHTS)
        hits, total = ratio.numerator, ratio.denominator
        if hits in (0, total):
            raise ConfigError(
                f"a hit ratio of {self.hit_ratio:g} is too near 0 or 1 to write as whole weights "
                f"adding up to at most {MAX_WEIGHTS}"
            )
        return hits, total - hits

    @property
    def exact_ratio(self) -> float:
        """The ratio the weights give (0.9 exactly for 9:1)."""
        hits, misses = self.weights
        return hits / (hits + misses)

    @property
    def rung_name(self) -> str:
        return f"mix-{self.exact_ratio * 100:g}"


def mixed_rung(options: MixOptions, hit: Rung, miss: Rung) -> Rung:
    """The rung that sends ``hit``'s and ``miss``'s requests in the options' ratio."""
    for rung in (hit, miss):
        if rung.stack is not Stack.PYTHON:
            raise ConfigError(
                f"{rung.name} is served by nginx, not the application: a mix goes to one server"
            )
        if rung.body is not None:
            raise ConfigError(f"{rung.name} sends a request body; a mix takes GET rungs only")
    hits, misses = options.weights
    share = f"{options.exact_ratio * 100:g} %"
    return Rung(
        options.rung_name,
        Stack.PYTHON,
        hit.path,
        f"{share} {hit.name}, the rest {miss.name} ({hits}:{misses})",
        needs=tuple(dict.fromkeys((*hit.needs, *miss.needs))),
        mix=((hits, hit), (misses, miss)),
    )


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
    # The mix's rate (its median trial), and the spread of its trials.
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

    def to_dict(self) -> dict[str, Any]:
        return {
            "hit_ratio": self.hit_ratio,
            "hit_rung": self.hit,
            "miss_rung": self.miss,
            "hit_requests_per_s": self.hit_rate,
            "miss_requests_per_s": self.miss_rate,
            "predicted_requests_per_s": self.predicted_rate,
            "predicted_ci95": list(self.predicted_interval),
            "measured_requests_per_s": self.measured_rate,
            "measured_ci95": [self.measured.ci_low, self.measured.ci_high],
            "measured_cv": self.measured.cv,
            "error": self.error,
            "error_ci95": list(self.error_interval),
            "significant": self.significant,
            "measured_hit_share": self.measured_hit_share,
        }


def mix_outcome(options: MixOptions, result: LadderResult) -> MixOutcome | None:
    """The outcome, from the ladder run of the two rungs and the mix; None unless all three
    were measured. Each rate is its rung's as the table shows it (the median trial); the
    intervals resample the trials."""
    by_name = {rung.rung: rung for rung in result.rungs}
    chosen = [by_name.get(name) for name in (options.hit, options.miss, options.rung_name)]
    hit, miss, mix = chosen
    if hit is None or miss is None or mix is None:
        return None
    if not (hit.requests_per_s and miss.requests_per_s and mix.requests_per_s):
        return None
    hits, misses, mixes = (_trial_rates(rung) for rung in (hit, miss, mix))
    h = options.exact_ratio

    def predicted(sample: list[float], other: list[float]) -> float:
        return predict_rate(h, statistics.median(sample), statistics.median(other))

    prediction = predict_rate(h, hit.requests_per_s, miss.requests_per_s)
    spread = Spread.of(mixes)
    return MixOutcome(
        hit_ratio=h,
        hit=options.hit,
        miss=options.miss,
        hit_rate=hit.requests_per_s,
        miss_rate=miss.requests_per_s,
        predicted_rate=prediction,
        predicted_interval=bootstrap(lambda resample: predicted(resample(hits), resample(misses))),
        measured_rate=mix.requests_per_s,
        measured=spread,
        error=prediction / mix.requests_per_s - 1.0,
        error_interval=bootstrap(
            lambda resample: (
                predicted(resample(hits), resample(misses)) / statistics.median(resample(mixes))
                - 1.0
            )
        ),
        measured_hit_share=_hit_share(mix),
    )


def _trial_rates(rung: RungResult) -> list[float]:
    return [trial.load.requests_per_s for trial in rung.trials]


def _hit_share(mix: RungResult) -> float | None:
    """The first URL's share of the median trial's completed requests (``by_url``)."""
    load = mix.load
    by_url = load.document.get("by_url") if load else None
    if not by_url:
        return None
    completed = sum(url["requests_completed"] for url in by_url)
    return by_url[0]["requests_completed"] / completed if completed else None


def format_mix(outcome: MixOutcome) -> str:
    low, high = outcome.predicted_interval
    error_low, error_high = outcome.error_interval
    m = outcome.measured
    share = (
        f"; {outcome.measured_hit_share * 100:.1f} % of its requests were hits"
        if outcome.measured_hit_share is not None
        else ""
    )
    verdict = (
        "beyond the noise: the two kinds of request change each other's cost"
        if outcome.significant
        else "within the noise of the measurements"
    )
    h = outcome.hit_ratio
    return "\n".join(
        [
            f"mix: {h * 100:g} % {outcome.hit}, {(1 - h) * 100:g} % {outcome.miss}",
            f"  predicted  1 / ({h:g} / {outcome.hit_rate:,.0f} + {1 - h:g} / "
            f"{outcome.miss_rate:,.0f}) = {outcome.predicted_rate:,.0f} req/s "
            f"(95 % CI {low:,.0f}-{high:,.0f})",
            f"  measured   {outcome.measured_rate:,.0f} req/s "
            f"(95 % CI {m.ci_low:,.0f}-{m.ci_high:,.0f}, "
            f"CV {m.cv * 100:.1f} %, {counted(m.n, 'trial')}){share}",
            f"  error      {outcome.error * 100:+.1f} % (predicted over measured; 95 % CI "
            f"{error_low * 100:+.1f} % to {error_high * 100:+.1f} %): {verdict}",
        ]
    )
