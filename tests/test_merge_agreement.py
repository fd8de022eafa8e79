"""The Rust merge (``layerbench-load merge``) and the Python merge
(:func:`layerbench.results.load_merge.merge_documents`) give the same document on the Python
merge's test vectors: tests/test_load_merge.py's clients (real runs, and a real run's document
carrying known latencies) and tests/test_hdr_histogram.py's sets of latencies. Every figure is
compared exactly, its JSON type too (an integer is not a float); a histogram by what it holds
(its settings and its counts bucket by bucket), since the two deflate its bytes differently.

With ``LAYERBENCH_WRITE_MERGE_VECTORS=1`` the vectors (the clients' documents and the Python
merge's document but its ``clients``) are written to load/tests/vectors/, where load/tests/merge_vectors.rs
checks the Rust merge against them."""

import copy
import json
import os
import random
import subprocess
from pathlib import Path
from typing import Any

import pytest

from layerbench.results.load_merge import merge_documents
from layerbench.rungs.definitions import STATIC_FILE
from layerbench.servers.nginx import NginxStatic
from layerbench.stats import hdr_histogram
from tests.load_documents import nginx, run_load, validate
from tests.test_hdr_histogram import latencies
from tests.test_load_merge import summary_of, urls_file

__all__ = ["nginx"]  # the fixture, used by name

VECTORS = Path(__file__).parent.parent / "load" / "tests" / "vectors"
HISTOGRAM_KEYS = ("latency_histogram_us", "latency_uncorrected_histogram_us")


def rust_merge(load_binary: Path, clients: list[dict[str, Any]]) -> dict[str, Any]:
    """``layerbench-load merge -``, the clients' documents on stdin one after another."""
    completed = subprocess.run(
        [str(load_binary), "merge", "-"],
        input="\n".join(json.dumps(client) for client in clients),
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert completed.returncode == 0, completed.stderr
    merged: dict[str, Any] = json.loads(completed.stdout)
    return merged


def held(value: Any, key: str = "") -> Any:
    """``value`` with each histogram as what it holds and each number tagged with its type."""
    if isinstance(value, dict):
        return {k: held(v, k) for k, v in value.items()}
    if isinstance(value, list):
        return [held(v) for v in value]
    if isinstance(value, str) and (key in HISTOGRAM_KEYS or key == "histogram"):
        histogram = hdr_histogram.decode(value)
        return ("histogram", histogram.layout, dict(sorted(histogram.counts.items())))
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return value
    return (type(value).__name__, value)


def held_document(document: dict[str, Any]) -> Any:
    """``held``, the phases' histograms (keyed by phase) included."""
    document = copy.deepcopy(document)
    for each in [document, *document.get("clients", [])]:
        phases = each.get("connection_histograms_us") or {}
        each["connection_histograms_us"] = {
            name: {"histogram": text} for name, text in phases.items()
        }
    return held(document)


def assert_agree(name: str, load_binary: Path, clients: list[dict[str, Any]]) -> None:
    python = json.loads(json.dumps(merge_documents(clients)))
    rust = rust_merge(load_binary, clients)
    validate(rust)
    assert held_document(rust) == held_document(python), name
    if os.environ.get("LAYERBENCH_WRITE_MERGE_VECTORS"):
        VECTORS.mkdir(exist_ok=True)
        # The merged document without its clients: the clients' documents themselves.
        merged = {key: value for key, value in python.items() if key != "clients"}
        vector = {"clients": clients, "python_merge": merged}
        (VECTORS / f"{name}.json").write_text(json.dumps(vector, indent=1) + "\n")


def with_latencies(template: dict[str, Any], values: list[int]) -> dict[str, Any]:
    """``template`` whose latency is that of ``values`` (its summary and histogram)."""
    document = copy.deepcopy(template)
    document["latency_us"], document["latency_histogram_us"] = summary_of(values)
    return document


def test_the_merges_agree_on_every_vector(
    load_binary: Path, nginx: NginxStatic, workdir: Path
) -> None:
    urls = urls_file(workdir, nginx)
    # tests/test_load_merge.py: real runs, closed and open loops, of two URLs.
    closed = [
        run_load(load_binary, "-n", n, "-c", c, "-k", "--urls", urls)
        for n, c in (("300", "3"), ("200", "2"))
    ]
    opened = [
        run_load(load_binary, "--rate", rate, "-n", "200", "-c", "2", "-k", "--urls", urls)
        for rate in ("2000", "1000")
    ]
    assert_agree("closed_loops", load_binary, closed)
    assert_agree("open_loops", load_binary, opened)
    one_url = f"{nginx.base_url}/{STATIC_FILE}"
    single = run_load(load_binary, "-n", "400", "-c", "2", one_url)
    assert_agree("one_client", load_binary, [single])
    assert_agree("same_client_twice", load_binary, [single, single])
    # tests/test_load_merge.py: a real open-loop run carrying known uncorrected and per-URL
    # latencies, two clients of 7,001 and 12,000 values.
    template = opened[0]
    clients = []
    for client, count in ((0, 7_001), (1, 12_000)):
        document = copy.deepcopy(template)
        summary, histogram = summary_of(latencies(count, seed=10 * client))
        document["latency_uncorrected_us"] = summary
        document["latency_uncorrected_histogram_us"] = histogram
        for url, part in zip(document["by_url"], (1, 2), strict=True):
            url["latency_us"], url["latency_histogram_us"] = summary_of(
                latencies(count, seed=10 * client + part)
            )
        clients.append(document)
    assert_agree("known_uncorrected_and_urls", load_binary, clients)
    # tests/test_load_merge.py: one set dealt at random to three clients; 1..=n dealt to three.
    rng = random.Random(26)
    parts: list[list[int]] = [[], [], []]
    for value in latencies(9_000, seed=26):
        parts[rng.randrange(3)].append(value)
    assert_agree("random_split", load_binary, [with_latencies(single, p) for p in parts])
    for count in (1000, 9000):
        parts = [list(range(first, count + 1, 3)) for first in (1, 2, 3)]
        clients = [with_latencies(single, p) for p in parts]
        assert_agree(f"one_to_{count}", load_binary, clients)
    # tests/test_hdr_histogram.py: 30,001 latencies cut a third of the way, three seeds.
    for seed in (1, 2, 3):
        values = latencies(30_001, seed)
        cut = len(values) // 3
        halves = [with_latencies(single, part) for part in (values[:cut], values[cut:])]
        assert_agree(f"halves_seed_{seed}", load_binary, halves)


@pytest.mark.parametrize("count", [1, 2])
def test_a_client_without_requests_agrees(
    load_binary: Path, nginx: NginxStatic, count: int
) -> None:
    """A client whose histograms are empty is left out of the pooled figures by both."""
    single = run_load(load_binary, "-n", "50", "-c", "1", f"{nginx.base_url}/{STATIC_FILE}")
    empty = with_latencies(single, [1, 2])
    empty["latency_us"] = {"min": 0, "mean": 0.0, "stdev": 0.0, "max": 0} | dict.fromkeys(
        hdr_histogram.PERCENTILES_PER_MILLE, 0
    )
    layout = hdr_histogram.decode(single["latency_histogram_us"]).layout
    empty["latency_histogram_us"] = hdr_histogram.encode(hdr_histogram.Histogram(layout, {}))
    assert_agree(f"empty_client_{count}", load_binary, [empty] * count + [single])
