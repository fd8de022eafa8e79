"""Several clients' runs at once, as one: what the load generators measured together.

Each client's latency histogram (``latency_histogram_us``) is decoded and the histograms are
added bucket by bucket, so the merged percentiles are those of every request of every client
(at the histogram's precision), never an average of percentiles. Counts add up; the rate is
the sum of the clients' rates (they ran at the same time); min and max are the extremes, the
mean is weighted by each client's latencies recorded and the standard deviation is pooled
exactly from each client's count, mean and sample deviation.
"""

import math
from collections import Counter
from collections.abc import Sequence
from typing import Any

from layerbench.errors import LoadGeneratorError
from layerbench.results.load_result import SCHEMA_VERSION, LoadResult
from layerbench.stats import hdr_histogram


def merge_loads(results: Sequence[LoadResult]) -> LoadResult:
    """The clients' results as one; its document lists theirs (``clients``) beside the merged
    histogram and latency figures."""
    if not results:
        raise LoadGeneratorError("no client's result to merge")
    histograms = []
    for number, result in enumerate(results, 1):
        if result.latency_histogram_us is None:
            raise LoadGeneratorError(
                f"client {number}'s result has no latency histogram (JSON version 1): its "
                "percentiles cannot be merged exactly; rebuild the load generator with: make demo"
            )
        histograms.append(hdr_histogram.decode(result.latency_histogram_us))
    merged = hdr_histogram.add(histograms)
    latency_us = _merged_latency(results, [h.total_count for h in histograms], merged)
    encoded = hdr_histogram.encode(merged)
    by_url = {len(result.requests_completed_by_url) for result in results}
    return LoadResult(
        requests_completed=sum(r.requests_completed for r in results),
        requests_failed=sum(r.requests_failed for r in results),
        non_2xx_responses=sum(r.non_2xx_responses for r in results),
        elapsed_s=max(r.elapsed_s for r in results),
        requests_per_s=sum(r.requests_per_s for r in results),
        latency_us=latency_us,
        client_cpu_s=sum(r.client_cpu_s for r in results),
        document={
            "version": SCHEMA_VERSION,
            "clients": [r.document for r in results],
            "latency_us": latency_us,
            "latency_histogram_us": encoded,
        },
        errors_by_kind=dict(sum((Counter(r.errors_by_kind) for r in results), Counter())),
        status_counts=dict(sum((Counter(r.status_counts) for r in results), Counter())),
        client_busiest_thread_cpu_fraction=max(
            r.client_busiest_thread_cpu_fraction for r in results
        ),
        requests_completed_by_url=tuple(
            map(sum, zip(*(r.requests_completed_by_url for r in results), strict=True))
        )
        if len(by_url) == 1
        else (),
        latency_histogram_us=encoded,
    )


def _merged_latency(
    results: Sequence[LoadResult], counts: Sequence[int], merged: hdr_histogram.Histogram
) -> dict[str, float]:
    measured = [(r.latency_us, n) for r, n in zip(results, counts, strict=True) if n]
    total = sum(n for _, n in measured)
    if not total:
        return {"min": 0, "mean": 0.0, "stdev": 0.0, "max": 0} | {
            name: 0 for name in hdr_histogram.PERCENTILES
        }
    mean = sum(latency["mean"] * n for latency, n in measured) / total
    # Σx² of each client from its sample deviation and mean: (n - 1) s² + n m².
    squares = sum(
        (n - 1) * latency["stdev"] ** 2 + n * latency["mean"] ** 2 for latency, n in measured
    )
    variance = (squares - total * mean * mean) / (total - 1) if total > 1 else 0.0
    largest = max(int(latency["max"]) for latency, _ in measured)
    figures: dict[str, Any] = {
        "min": min(int(latency["min"]) for latency, _ in measured),
        "mean": mean,
        "stdev": math.sqrt(max(variance, 0.0)),
        "max": largest,
    }
    return figures | merged.percentiles(largest)
