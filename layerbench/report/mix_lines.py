"""A mix's outcome (``layerbench mix``, the document's ``mix``) as the rows of a table, for the
HTML and Markdown reports."""

from typing import Any


def mix_rows(mix: dict[str, Any]) -> list[list[str]]:
    """A header, then the prediction, the measurement and the error, each with its 95 %
    interval."""
    h = mix["hit_ratio"]
    low, high = mix["predicted_ci95"]
    measured_low, measured_high = mix["measured_ci95"]
    error_low, error_high = mix["error_ci95"]
    what = f"{h * 100:g} % {mix['hit_rung']}, {(1 - h) * 100:g} % {mix['miss_rung']}"
    verdict = "beyond the noise" if mix["significant"] else "within the noise"
    return [
        [what, "value", "95 % interval"],
        [
            f"predicted: 1 / ({h:g} / {mix['hit_requests_per_s']:,.0f} + "
            f"{1 - h:g} / {mix['miss_requests_per_s']:,.0f})",
            f"{mix['predicted_requests_per_s']:,.0f} req/s",
            f"{low:,.0f} to {high:,.0f}",
        ],
        [
            "measured",
            f"{mix['measured_requests_per_s']:,.0f} req/s",
            f"{measured_low:,.0f} to {measured_high:,.0f}",
        ],
        [
            f"error (predicted over measured; {verdict})",
            f"{100 * mix['error']:+.1f} %",
            f"{100 * error_low:+.1f} % to {100 * error_high:+.1f} %",
        ],
    ]
