"""One latency figure of several clients' documents as one: their histograms added bucket by
bucket and the percentiles (or the median) read from the sum, as the load generator reads
them from its own; min and max the extremes, the mean weighted by each client's count and the
sample standard deviation pooled exactly from each client's count, mean and deviation.

A client's count is its histogram's total: the values its summary was read from.
"""

import math
from collections.abc import Mapping, Sequence
from typing import Any

from layerbench.stats import hdr_histogram


def merged_latency(
    summaries: Sequence[Mapping[str, Any]], encoded: Sequence[str]
) -> tuple[dict[str, Any], str]:
    """A ``latency_us`` of every request of every client, and its histogram encoded."""
    histograms = [hdr_histogram.decode(text) for text in encoded]
    merged = hdr_histogram.add(histograms)
    figures = _pooled(summaries, [h.total_count for h in histograms])
    if figures is None:
        empty = {"min": 0, "mean": 0.0, "stdev": 0.0, "max": 0}
        empty |= dict.fromkeys(hdr_histogram.PERCENTILES_PER_MILLE, 0)
        return empty, hdr_histogram.encode(merged)
    return figures | merged.percentiles(figures["max"]), hdr_histogram.encode(merged)


def merged_phase(
    summaries: Sequence[Mapping[str, Any]], encoded: Sequence[str]
) -> tuple[dict[str, Any], str]:
    """A phase of ``connection_times_us`` (min, mean, stdev, median, max) of every client's
    responses, and its histogram encoded; the median is clamped to min and max as the load
    generator clamps it."""
    histograms = [hdr_histogram.decode(text) for text in encoded]
    merged = hdr_histogram.add(histograms)
    figures = _pooled(summaries, [h.total_count for h in histograms])
    if figures is None:
        empty = {"min": 0, "mean": 0.0, "stdev": 0.0, "median": 0, "max": 0}
        return empty, hdr_histogram.encode(merged)
    median = min(max(merged.value_at_per_mille(500), figures["min"]), figures["max"])
    return {
        "min": figures["min"],
        "mean": figures["mean"],
        "stdev": figures["stdev"],
        "median": median,
        "max": figures["max"],
    }, hdr_histogram.encode(merged)


def _pooled(summaries: Sequence[Mapping[str, Any]], counts: Sequence[int]) -> dict[str, Any] | None:
    """min, mean, stdev and max of the union (None when nothing was counted)."""
    measured = [(s, n) for s, n in zip(summaries, counts, strict=True) if n]
    total = sum(n for _, n in measured)
    if not total:
        return None
    mean = sum(s["mean"] * n for s, n in measured) / total
    # Σx² of each client from its sample deviation and mean: (n - 1) s² + n m².
    squares = sum((n - 1) * s["stdev"] ** 2 + n * s["mean"] ** 2 for s, n in measured)
    variance = (squares - total * mean * mean) / (total - 1) if total > 1 else 0.0
    return {
        "min": min(int(s["min"]) for s, _ in measured),
        "mean": mean,
        "stdev": math.sqrt(max(variance, 0.0)),
        "max": max(int(s["max"]) for s, _ in measured),
    }
