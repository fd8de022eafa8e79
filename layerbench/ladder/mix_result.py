"""A mix's outcome (``layerbench mix``) as the ladder's JSON document holds it, its ``mix``:
written from :class:`~layerbench.stats.mix_prediction.MixOutcome` and read back into one."""

from layerbench.errors import ConfigError
from layerbench.results.run_records import MixRecord
from layerbench.stats.mix_prediction import MixOutcome
from layerbench.stats.spread import Spread
from layerbench.typed_documents import JsonObject, decode


def mix_dict(outcome: MixOutcome) -> JsonObject:
    return {
        "hit_ratio": outcome.hit_ratio,
        "hit_rung": outcome.hit,
        "miss_rung": outcome.miss,
        "hit_requests_per_s": outcome.hit_rate,
        "miss_requests_per_s": outcome.miss_rate,
        "predicted_requests_per_s": outcome.predicted_rate,
        "predicted_ci95": list(outcome.predicted_interval),
        "measured_requests_per_s": outcome.measured_rate,
        "measured_ci95": [outcome.measured.ci_low, outcome.measured.ci_high],
        "measured_cv": outcome.measured.cv,
        "error": outcome.error,
        "error_ci95": list(outcome.error_interval),
        "significant": outcome.significant,
        "measured_hit_share": outcome.measured_hit_share,
    }


def read_mix(mix: object) -> MixOutcome:
    """A ladder document's ``mix`` (JSON just parsed), checked: a wrong field is a ValueError
    naming it, as the document's reader says of each."""
    try:
        return mix_from(decode(MixRecord, mix, "mix"))
    except ConfigError as error:
        raise ValueError(str(error)) from None


def mix_from(mix: MixRecord) -> MixOutcome:
    """The document's ``mix``; the number of the mix's trials is not in it (0: unknown)."""
    measured_low, measured_high = mix.measured_ci95
    measured = mix.measured_requests_per_s
    return MixOutcome(
        hit_ratio=mix.hit_ratio,
        hit=mix.hit_rung,
        miss=mix.miss_rung,
        hit_rate=mix.hit_requests_per_s,
        miss_rate=mix.miss_requests_per_s,
        predicted_rate=mix.predicted_requests_per_s,
        predicted_interval=mix.predicted_ci95,
        measured_rate=measured,
        measured=Spread(0, measured, mix.measured_cv or 0.0, measured_low, measured_high),
        error=mix.error,
        error_interval=mix.error_ci95,
        measured_hit_share=mix.measured_hit_share,
    )
