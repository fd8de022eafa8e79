"""Several clients' load documents merged into one load document (issue 26): the schema of
one client's, its counts the clients' added, every histogram the clients' added exactly (the
percentiles of the merged uncorrected and per-URL latencies are those of the union), and the
lab's table prints it like any load result."""

import copy
import random
from pathlib import Path
from typing import Any

import pytest

from layerbench.errors import LoadGeneratorError
from layerbench.ladder.ladder_table import format_ladder_table
from layerbench.results.ladder_result import LadderResult, RungResult
from layerbench.results.load_merge import merge_documents, merge_loads
from layerbench.results.load_merge_latency import merged_latency
from layerbench.results.load_result import LoadResult
from layerbench.results.status import Status
from layerbench.results.trials import Trial
from layerbench.results.usage import Usage
from layerbench.rungs.definitions import STATIC_BODY, STATIC_FILE
from layerbench.servers.nginx import NginxStatic
from layerbench.stats import hdr_histogram
from tests.load_documents import OTHER_BODY, OTHER_FILE, nginx, run_load, validate
from tests.test_hdr_histogram import LOAD_LAYOUT, latencies, nearest_rank

__all__ = ["nginx"]  # the fixture, used by name


def urls_file(workdir: Path, server: NginxStatic) -> str:
    """A --urls list: three requests for the static file to one for the other."""
    path = workdir / "clients.urls"
    path.write_text(f"3 {server.base_url}/{STATIC_FILE}\n1 {server.base_url}/{OTHER_FILE}\n")
    return str(path)


def summary_of(values: list[int]) -> tuple[dict[str, Any], str]:
    """A latency summary of ``values`` as the load generator writes one, and its histogram."""
    histogram = hdr_histogram.record(LOAD_LAYOUT, values)
    mean = sum(values) / len(values)
    stdev = (sum((v - mean) ** 2 for v in values) / (len(values) - 1)) ** 0.5
    figures = {"min": min(values), "mean": mean, "stdev": stdev, "max": max(values)}
    return figures | histogram.percentiles(max(values)), hdr_histogram.encode(histogram)


def assert_union(summary: dict[str, Any], union: list[int], what: str) -> None:
    """``summary`` is that of every value of ``union``, at the histogram's precision."""
    union = sorted(union)
    for name in ("p50", "p99", "p99_9"):
        # The nearest rank ⌈p x n / 1000⌉ in integers: exact also when n x 0.999 is whole.
        nearest = nearest_rank(union, hdr_histogram.PERCENTILES_PER_MILLE[name])
        expected = min(LOAD_LAYOUT.highest_equivalent(nearest), union[-1])
        assert summary[name] == expected, f"{what} {name}"
    mean = sum(union) / len(union)
    stdev = (sum((v - mean) ** 2 for v in union) / (len(union) - 1)) ** 0.5
    assert (summary["min"], summary["max"]) == (union[0], union[-1]), what
    assert summary["mean"] == pytest.approx(mean, rel=1e-12), what
    assert summary["stdev"] == pytest.approx(stdev, rel=1e-9), what


def test_merged_uncorrected_and_per_url_percentiles_are_the_unions(
    load_binary: Path, nginx: NginxStatic, workdir: Path
) -> None:
    """A real open-loop run of two URLs is the template of two clients' documents whose
    uncorrected and per-URL latencies are known values: the merged percentiles are the
    union's, not an average of the clients'."""
    template = run_load(
        load_binary, "--rate", "2000", "-n", "100", "-c", "2", "-k",
        "--urls", urls_file(workdir, nginx),
    )  # fmt: skip
    values = {
        (client, part): latencies(count, seed=10 * client + part)
        for client, count in ((0, 7_001), (1, 12_000))
        for part in range(3)  # 0: uncorrected, 1 and 2: the URLs
    }
    clients = []
    for client in (0, 1):
        document = copy.deepcopy(template)
        summary, histogram = summary_of(values[client, 0])
        document["latency_uncorrected_us"] = summary
        document["latency_uncorrected_histogram_us"] = histogram
        for url, part in zip(document["by_url"], (1, 2), strict=True):
            url["latency_us"], url["latency_histogram_us"] = summary_of(values[client, part])
        clients.append(document)
    merged = merge_documents(clients)
    validate(merged)
    assert_union(merged["latency_uncorrected_us"], values[0, 0] + values[1, 0], "uncorrected")
    for url, part in zip(merged["by_url"], (1, 2), strict=True):
        assert_union(url["latency_us"], values[0, part] + values[1, part], url["path"])
    assert [url["path"] for url in merged["by_url"]] == [f"/{STATIC_FILE}", f"/{OTHER_FILE}"]
    # An average of the clients' p99 is not the union's: the point of adding histograms.
    own = [c["latency_uncorrected_us"]["p99"] for c in clients]
    assert sum(own) / 2 != merged["latency_uncorrected_us"]["p99"]


def test_two_real_runs_merge_into_one_load_document(
    load_binary: Path, nginx: NginxStatic, workdir: Path
) -> None:
    urls = urls_file(workdir, nginx)
    closed = [
        run_load(load_binary, "-n", n, "-c", c, "-k", "--urls", urls)
        for n, c in (("300", "3"), ("200", "2"))
    ]
    opened = [
        run_load(load_binary, "--rate", rate, "-n", "200", "-c", "2", "-k", "--urls", urls)
        for rate in ("2000", "1000")
    ]
    # Each client's own histograms hold what its summaries were read from, read here alike.
    for document in closed + opened:
        pairs = [(url["latency_us"], url["latency_histogram_us"]) for url in document["by_url"]]
        if document["rate"] is not None:
            pairs.append(
                (document["latency_uncorrected_us"], document["latency_uncorrected_histogram_us"])
            )
        for summary, encoded in pairs:
            percentiles = hdr_histogram.decode(encoded).percentiles(summary["max"])
            assert percentiles == {
                name: summary[name] for name in hdr_histogram.PERCENTILES_PER_MILLE
            }
    for clients in (closed, opened):
        merged = merge_documents(clients)
        validate(merged)
        assert merged["clients"] == clients
        completed = sum(c["requests_completed"] for c in clients)
        assert merged["requests_completed"] == completed
        for name in (
            "requests_failed",
            "non_2xx_responses",
            "keep_alive_requests",
            "total_transferred_bytes",
            "html_transferred_bytes",
            "sent_bytes",
        ):
            assert merged[name] == sum(c[name] for c in clients), name  # fmt: skip
        assert merged["status_counts"] == {"200": completed}
        assert merged["failures"] == {"connect": 0, "receive": 0, "length": 0, "exceptions": 0}
        assert merged["elapsed_s"] == max(c["elapsed_s"] for c in clients)
        assert merged["requests_per_s"] == completed / merged["elapsed_s"]
        assert merged["options"]["concurrency"] == sum(c["options"]["concurrency"] for c in clients)
        assert merged["options"]["requests"] == sum(c["options"]["requests"] for c in clients)
        for figure in ("user", "system"):
            total = sum(c["client_cpu_s"][figure] for c in clients)
            assert merged["client_cpu_s"][figure] == pytest.approx(total)
        # Every histogram holds every response of both clients.
        histograms = [merged["latency_histogram_us"]]
        histograms += merged["connection_histograms_us"].values()
        for encoded in histograms:
            assert hdr_histogram.decode(encoded).total_count == completed
        for index, body in enumerate((STATIC_BODY, OTHER_BODY)):
            url = merged["by_url"][index]
            own = [c["by_url"][index]["requests_completed"] for c in clients]
            assert url["requests_completed"] == sum(own)
            assert url["document_length_bytes"] == len(body)
            histogram = hdr_histogram.decode(url["latency_histogram_us"])
            assert histogram.total_count == url["requests_completed"]
        shares = [url["requests_completed"] for url in merged["by_url"]]
        assert shares == [completed * 3 // 4, completed // 4]
    rate = merged["rate"]
    assert rate["target_per_s"] == 3000
    assert rate["scheduled_requests"] == 400
    uncorrected = hdr_histogram.decode(merged["latency_uncorrected_histogram_us"])
    assert uncorrected.total_count == 400
    assert merge_documents(closed)["rate"] is None


def test_the_lab_reads_and_prints_a_merged_result(load_binary: Path, nginx: NginxStatic) -> None:
    url = f"{nginx.base_url}/{STATIC_FILE}"
    clients = [LoadResult.from_document(run_load(load_binary, "-n", "400", "-c", "2", url))] * 2
    merged = merge_loads(clients)
    assert merged.requests_completed == 800
    assert merged.status_counts == {"200": 800}
    assert merged.errors_and_statuses == {}
    assert merged.latency_us == clients[0].latency_us | {"stdev": merged.latency_us["stdev"]}
    ladder = LadderResult(options={}, conditions={}, started_at="2026-11-24T00:00:00+00:00")
    trial = Trial(merged, Usage({}, merged.elapsed_s, 1, 0.0))
    ladder.rungs = [RungResult("static", "nginx", Status.OK, trials=(trial,))]
    table = format_ladder_table(ladder, colour=False)
    assert f"{merged.requests_per_s:,.0f}" in table
    assert f"{merged.latency_us['p99'] / 1000:.3f}" in table


def test_what_cannot_be_merged_exactly_is_refused(load_binary: Path, nginx: NginxStatic) -> None:
    url = f"{nginx.base_url}/{STATIC_FILE}"
    closed = run_load(load_binary, "-n", "50", "-c", "1", url)
    opened = run_load(load_binary, "--rate", "1000", "-n", "50", "-c", "1", url)
    with pytest.raises(LoadGeneratorError, match="open loops and closed loops"):
        merge_documents([closed, opened])
    version_2 = {
        key: value
        for key, value in closed.items()
        if key not in ("connection_histograms_us", "latency_uncorrected_histogram_us", "clients")
    } | {"version": 2}
    LoadResult.from_document(version_2)  # still read
    with pytest.raises(LoadGeneratorError, match="client 2's result is JSON version 2"):
        merge_documents([closed, version_2])
    with pytest.raises(LoadGeneratorError, match="no client's result"):
        merge_documents([])
    # A damaged document: one line naming what is wrong, no traceback of a KeyError.
    without_phases = {key: value for key, value in closed.items() if key != "connection_times_us"}
    with pytest.raises(LoadGeneratorError, match="client 2's result has no 'connection_times_us'"):
        merge_documents([closed, without_phases])
    garbled = closed | {"latency_histogram_us": "not a histogram"}
    with pytest.raises(LoadGeneratorError, match="client 1's result: not a histogram in V2"):
        merge_documents([garbled, closed])


def test_a_random_split_of_one_set_merges_to_the_whole() -> None:
    """Without the load generator: one set of latencies dealt at random to three clients."""
    rng = random.Random(26)
    values = latencies(9_000, seed=26)
    parts: list[list[int]] = [[], [], []]
    for value in values:
        parts[rng.randrange(3)].append(value)
    summaries = [summary_of(part) for part in parts]
    merged, encoded = merged_latency([s for s, _ in summaries], [h for _, h in summaries])
    assert_union(merged, values, "split")
    assert hdr_histogram.decode(encoded).total_count == len(values)


@pytest.mark.parametrize(("count", "p50", "p99_9"), [(1000, 500, 999), (9000, 4503, 8991)])
def test_merged_percentiles_of_one_to_n_are_the_nearest_ranks(
    count: int, p50: int, p99_9: int
) -> None:
    """1..=n µs dealt to three clients: the merge's p99.9 is the ⌈0.999 n⌉th value (its bucket's
    top), not the next one up, and its p50 the ⌈n / 2⌉th."""
    parts = [list(range(first, count + 1, 3)) for first in (1, 2, 3)]
    summaries = [summary_of(part) for part in parts]
    merged, _ = merged_latency([s for s, _ in summaries], [h for _, h in summaries])
    assert (merged["p50"], merged["p99_9"]) == (p50, p99_9)
