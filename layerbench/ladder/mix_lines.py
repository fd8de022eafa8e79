"""A mix's outcome (``layerbench mix``): as lines for the terminal, and as the rows of a table
for the HTML and Markdown reports."""

from layerbench.stats.mix_prediction import MixOutcome
from layerbench.words import counted


def mix_rows(mix: MixOutcome) -> list[list[str]]:
    """A header, then the prediction, the measurement and the error, each with its 95 %
    interval."""
    h = mix.hit_ratio
    low, high = mix.predicted_interval
    error_low, error_high = mix.error_interval
    what = f"{h * 100:g} % {mix.hit}, {(1 - h) * 100:g} % {mix.miss}"
    verdict = "beyond the noise" if mix.significant else "within the noise"
    return [
        [what, "value", "95 % interval"],
        [
            f"predicted: 1 / ({h:g} / {mix.hit_rate:,.0f} + {1 - h:g} / {mix.miss_rate:,.0f})",
            f"{mix.predicted_rate:,.0f} req/s",
            f"{low:,.0f} to {high:,.0f}",
        ],
        [
            "measured",
            f"{mix.measured_rate:,.0f} req/s",
            f"{mix.measured.ci_low:,.0f} to {mix.measured.ci_high:,.0f}",
        ],
        [
            f"error (predicted over measured; {verdict})",
            f"{100 * mix.error:+.1f} %",
            f"{100 * error_low:+.1f} % to {100 * error_high:+.1f} %",
        ],
    ]


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
