"""A mixed load, predicted and measured: seed 000's "a 90 % hit ratio on the cache and 10 %
expensive processing".

The prediction comes from the two rungs measured alone (:mod:`layerbench.stats.mix_prediction`).
The mixed load itself is a rung whose requests go to both URLs in the
ratio (the load generator's ``--urls``), measured in the same interleaved passes as the two.
"""

from dataclasses import dataclass
from fractions import Fraction

from layerbench.errors import ConfigError
from layerbench.ladder.ladder_result import LadderResult, RungResult
from layerbench.rungs.definitions import Rung, Stack
from layerbench.stats.mix_prediction import Measured, MixOutcome, predict_mix

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


def mix_outcome(options: MixOptions, result: LadderResult) -> MixOutcome | None:
    """The outcome, from the ladder run of the two rungs and the mix; None unless all three
    were measured. Each rate is its rung's as the table shows it (the median of its trials');
    the intervals resample the trials."""
    by_name = {rung.rung: rung for rung in result.rungs}
    chosen = [by_name.get(name) for name in (options.hit, options.miss, options.rung_name)]
    hit, miss, mix = chosen
    if hit is None or miss is None or mix is None:
        return None
    measured = [_measured(rung) for rung in (hit, miss, mix)]
    if None in measured:
        return None
    hit_rung, miss_rung, mix_rung = (rung for rung in measured if rung is not None)
    return predict_mix(options.exact_ratio, hit_rung, miss_rung, mix_rung, _hit_share(mix))


def _measured(rung: RungResult) -> Measured | None:
    if not rung.requests_per_s:
        return None
    return Measured(rung.rung, rung.requests_per_s, [t.load.requests_per_s for t in rung.trials])


def _hit_share(mix: RungResult) -> float | None:
    """The first URL's share of the representative trial's completed requests (``by_url``)."""
    by_url = mix.load.requests_completed_by_url if mix.load else ()
    completed = sum(by_url)
    return by_url[0] / completed if completed else None
