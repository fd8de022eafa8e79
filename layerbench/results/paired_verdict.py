"""A paired comparison (:class:`~layerbench.stats.comparison.RungComparison`) as the documents
and exporters write it: the JSON object of a ladder rung's ``vs_above`` and of a matrix cell's
``vs_first``, and the flat columns of CSV, so that every output carries the verdict the terminal
shows, with its ratio, interval, passes and confidence.

    {"ratio": 0.81, "ci_low": 0.78, "ci_high": 0.84, "passes": 5, "confidence": 0.95,
     "verdict": "slower", "text": "slower by 19 % [-22 %, -16 %]", "more_passes": null}
"""

from typing import Any

from layerbench.stats.comparison import RungComparison
from layerbench.stats.sequential import LooksMade
from layerbench.typed_documents import JsonObject

# The CSV columns of a comparison, after its prefix ("vs_above_ratio").
FLAT_FIELDS = ("ratio", "ci_low", "ci_high", "passes", "verdict")


def comparison_dict(compared: RungComparison | None, confidence: float) -> JsonObject | None:
    """The comparison's JSON object (None when there is nothing to compare)."""
    if compared is None:
        return None
    return {
        "ratio": compared.ratio,
        "ci_low": compared.ci_low,
        "ci_high": compared.ci_high,
        "passes": compared.trials,
        "confidence": confidence,
        "verdict": compared.judged.word,
        "text": compared.verdict,
        "more_passes": compared.judged.more_passes,
    }


def flat_columns(prefix: str, compared: RungComparison | None) -> JsonObject:
    """The comparison as CSV's columns, each named ``prefix`` + its field (None: empty)."""
    values: JsonObject = dict.fromkeys((prefix + name for name in FLAT_FIELDS), None)
    if compared is not None:
        values.update(
            {
                f"{prefix}ratio": round(compared.ratio, 4),
                f"{prefix}ci_low": None if compared.ci_low is None else round(compared.ci_low, 4),
                f"{prefix}ci_high": (
                    None if compared.ci_high is None else round(compared.ci_high, 4)
                ),
                f"{prefix}passes": compared.trials,
                f"{prefix}verdict": compared.judged.word,
            }
        )
    return values


def read_looks(document: Any) -> LooksMade | None:
    """A document's ``until_decided`` (None when the run had no --until-decided)."""
    if document is None:
        return None
    return LooksMade(
        passes=int(document["passes"]),
        looks=int(document["looks"]),
        confidence=float(document["confidence"]),
        decided=int(document["decided"]),
        comparisons=int(document["comparisons"]),
        max_time_s=float(document["max_time_s"]),
        time_up=bool(document["time_up"]),
    )
