"""Latency histograms in HdrHistogram's interchange encoding, added exactly: the merged
percentiles are those of the union of the latencies, at the histogram's precision; the
load generator's own histograms decode to the percentiles it reported."""

import random
from pathlib import Path

import pytest

from layerbench.errors import LoadGeneratorError
from layerbench.results.load_merge import merge_loads
from layerbench.results.load_result import LoadResult
from layerbench.rungs.definitions import STATIC_FILE
from layerbench.servers.nginx import NginxStatic
from layerbench.stats import hdr_histogram
from layerbench.stats.hdr_histogram import HistogramEncodingError, Layout
from tests.load_documents import nginx, run_load

__all__ = ["nginx"]  # the fixture, used by name

# The load generator's: 1 µs to one hour, 3 significant digits (load/src/stats/recorder.rs).
LOAD_LAYOUT = Layout(1, 3_600_000_000, 3)


def nearest_rank(sorted_values: list[int], per_mille: int) -> int:
    """The smallest value with at least ``per_mille`` ‰ of the values at or below it: the
    value of rank ⌈p x n / 1000⌉, computed in integers."""
    rank = max(-(-len(sorted_values) * per_mille // 1000), 1)
    return sorted_values[rank - 1]


def bucket_tops(histogram: hdr_histogram.Histogram) -> list[int]:
    """Every value counted, as the highest value of its bucket, in ascending order."""
    layout = histogram.layout
    return [
        layout.highest_equivalent(layout.value_of(index))
        for index in sorted(histogram.counts)
        for _ in range(histogram.counts[index])
    ]


def latencies(count: int, seed: int) -> list[int]:
    """Log-uniform latencies from 1 µs to 10 s, with a heavy cluster near 2 ms."""
    rng = random.Random(seed)
    spread = [int(10 ** rng.uniform(0, 7)) for _ in range(count // 2)]
    cluster = [int(rng.gauss(2_000, 150)) for _ in range(count - count // 2)]
    return spread + [max(v, 1) for v in cluster]


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_halves_added_give_the_percentiles_of_the_union(seed: int) -> None:
    values = latencies(30_001, seed)
    cut = len(values) // 3
    halves = [hdr_histogram.record(LOAD_LAYOUT, part) for part in (values[:cut], values[cut:])]
    decoded = [hdr_histogram.decode(hdr_histogram.encode(h)) for h in halves]
    assert [d.counts for d in decoded] == [h.counts for h in halves]
    merged = hdr_histogram.add(decoded)
    union = sorted(values)
    assert merged.total_count == len(union)
    percentiles = merged.percentiles(max(union))
    for name, per_mille in hdr_histogram.PERCENTILES_PER_MILLE.items():
        expected = min(LOAD_LAYOUT.highest_equivalent(nearest_rank(union, per_mille)), max(union))
        assert percentiles[name] == expected, name
    # The bucket's precision: within 0.1 % of the exact value, never below it.
    for name in ("p50", "p99", "p99_9"):
        exact = nearest_rank(union, hdr_histogram.PERCENTILES_PER_MILLE[name])
        assert exact <= percentiles[name] <= exact * 1.001, name
    # An average of the halves' percentiles is not this: the point of adding histograms.
    halves_p99 = [h.value_at_per_mille(990) for h in halves]
    assert sum(halves_p99) / 2 != percentiles["p99"]


@pytest.mark.parametrize(
    ("count", "p50", "p99", "p99_9"),
    [
        # Below 2048 µs every value has its own bucket: the 500th, 990th and 999th values.
        (1000, 500, 990, 999),
        # 9000 x 0.999 = 8991 is whole: the 8991st value, the top of its bucket 8984..=8991,
        # not the next bucket's 8999 (99.9 / 100.0 is a hair above 0.999 in floating point).
        (9000, 4503, 8911, 8991),
    ],
)
def test_percentiles_are_the_nearest_ranks_of_one_to_n(
    count: int, p50: int, p99: int, p99_9: int
) -> None:
    values = range(1, count + 1)
    decoded = hdr_histogram.decode(hdr_histogram.encode(hdr_histogram.record(LOAD_LAYOUT, values)))
    percentiles = decoded.percentiles(count)
    assert (percentiles["p50"], percentiles["p99"], percentiles["p99_9"]) == (p50, p99, p99_9)


def test_nearest_ranks_are_exact() -> None:
    assert [hdr_histogram.nearest_rank(999, n) for n in (1000, 9000, 9001)] == [999, 8991, 8992]
    assert [hdr_histogram.nearest_rank(500, n) for n in (1, 1000, 1001)] == [1, 500, 501]
    assert hdr_histogram.nearest_rank(0, 10) == 1
    histogram = hdr_histogram.record(LOAD_LAYOUT, [7, *[40] * 98, 1000])
    assert [histogram.value_at_per_mille(p) for p in (0, 10, 20, 990, 999, 1000)] == [
        7, 7, 40, 40, 1000, 1000
    ]  # fmt: skip
    assert hdr_histogram.record(LOAD_LAYOUT, []).value_at_per_mille(999) == 0
    with pytest.raises(ValueError, match=r"outside 0\.\.1000"):
        histogram.value_at_per_mille(1001)


def test_the_layout_matches_hdrhistogram() -> None:
    # Below 2048 every value has its own bucket; above, 3 significant digits.
    assert [LOAD_LAYOUT.highest_equivalent(v) for v in (0, 1, 2047)] == [0, 1, 2047]
    assert LOAD_LAYOUT.highest_equivalent(2048) == 2049
    assert LOAD_LAYOUT.highest_equivalent(20_000) == 20_015
    for value in (0, 1, 1023, 1024, 2047, 2048, 4095, 123_456, 3_600_000_000):
        index = LOAD_LAYOUT.index_of(value)
        assert LOAD_LAYOUT.value_of(index) <= value <= LOAD_LAYOUT.highest_equivalent(value)


def test_not_a_histogram_is_a_clear_error() -> None:
    for text in ("not base64!", "aGVsbG8gd29ybGQ=", "HISTBAAAAAA="):
        with pytest.raises(HistogramEncodingError):
            hdr_histogram.decode(text)
    other = hdr_histogram.record(Layout(1, 1_000_000, 2), [5])
    with pytest.raises(HistogramEncodingError, match="different layouts"):
        hdr_histogram.add([other, hdr_histogram.record(LOAD_LAYOUT, [5])])


def test_the_load_generators_histograms_decode_and_merge(
    load_binary: Path, nginx: NginxStatic
) -> None:
    url = nginx.base_url + "/" + STATIC_FILE
    documents = [
        run_load(load_binary, "-n", n, "-c", c, "-k", url)
        for n, c in (("3000", "4"), ("1000", "1"))
    ]
    results = [LoadResult.from_document(d) for d in documents]
    for document, result in zip(documents, results, strict=True):
        assert document["version"] == 3
        assert document["latency_histogram_us"].startswith("HISTFAAA")  # cookie 0x1c849314
        histogram = hdr_histogram.decode(document["latency_histogram_us"])
        assert histogram.layout == LOAD_LAYOUT
        assert histogram.total_count == result.requests_completed
        latency = document["latency_us"]
        assert histogram.percentiles(latency["max"]) == {
            name: latency[name] for name in hdr_histogram.PERCENTILES_PER_MILLE
        }
        # Both read the nearest rank of what was counted (n = 3000 and 1000: n x 0.999 whole).
        tops = bucket_tops(histogram)
        for name, per_mille in hdr_histogram.PERCENTILES_PER_MILLE.items():
            assert latency[name] == min(nearest_rank(tops, per_mille), latency["max"]), name
    merged = merge_loads(results)
    assert merged.requests_completed == 4000
    assert hdr_histogram.decode(merged.latency_histogram_us or "").total_count == 4000
    both = merged.latency_us
    assert both["min"] == min(r.latency_us["min"] for r in results)
    assert both["max"] == max(r.latency_us["max"] for r in results)
    assert min(r.latency_us["p50"] for r in results) <= both["p50"]
    assert both["p50"] <= max(r.latency_us["p50"] for r in results)
    assert merged.status_counts == {"200": 4000}
    # A version 1 document has no histogram: refused, not averaged.
    old = {key: value for key, value in documents[0].items() if key != "latency_histogram_us"}
    with pytest.raises(LoadGeneratorError, match="cannot be merged exactly"):
        merge_loads([results[1], LoadResult.from_document(old | {"version": 1})])
