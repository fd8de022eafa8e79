"""A mix's outcome (``layerbench mix``) as the ladder's JSON document holds it, its ``mix``:
written from :class:`~layerbench.stats.mix_prediction.MixOutcome` and read back into one."""

from typing import Any

from layerbench.stats.mix_prediction import MixOutcome
from layerbench.stats.spread import Spread


def mix_dict(outcome: MixOutcome) -> dict[str, Any]:
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


def read_mix(mix: dict[str, Any]) -> MixOutcome:
    """The document's ``mix``; the number of the mix's trials is not in it (0: unknown)."""
    low, high = mix["predicted_ci95"]
    measured_low, measured_high = mix["measured_ci95"]
    error_low, error_high = mix["error_ci95"]
    measured = float(mix["measured_requests_per_s"])
    share = mix.get("measured_hit_share")
    return MixOutcome(
        hit_ratio=float(mix["hit_ratio"]),
        hit=str(mix["hit_rung"]),
        miss=str(mix["miss_rung"]),
        hit_rate=float(mix["hit_requests_per_s"]),
        miss_rate=float(mix["miss_requests_per_s"]),
        predicted_rate=float(mix["predicted_requests_per_s"]),
        predicted_interval=(float(low), float(high)),
        measured_rate=measured,
        measured=Spread(
            0, measured, float(mix.get("measured_cv") or 0.0), measured_low, measured_high
        ),
        error=float(mix["error"]),
        error_interval=(float(error_low), float(error_high)),
        measured_hit_share=None if share is None else float(share),
    )
