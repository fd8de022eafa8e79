"""Several clients' load documents merged into one load document by ``layerbench-load merge``
(layerbench.lab.load_merge): the schema of one client's, its counts the clients' added, its
rates over the longest client's time, and the lab's table prints it like any load result; what
cannot be merged exactly is refused in the load generator's one line.

The arithmetic (every histogram added exactly, the percentiles those of the union) is the load
generator's own and tested there: load/src/merge/tests.rs, load/tests/merge.rs, and
load/tests/merge_vectors.rs against the documents of the Python merge it replaced."""

from pathlib import Path
from typing import Any

import pytest

from layerbench.errors import LoadGeneratorError
from layerbench.lab.load_merge import merge_documents, merge_loads
from layerbench.ladder.ladder_result import LadderResult, RungResult
from layerbench.ladder.ladder_table import format_ladder_table
from layerbench.results.load_result import LoadResult
from layerbench.results.status import Status
from layerbench.results.trials import Trial
from layerbench.results.usage import Usage
from layerbench.rungs.definitions import STATIC_BODY, STATIC_FILE
from layerbench.servers.nginx import NginxStatic
from tests.load_documents import OTHER_BODY, OTHER_FILE, nginx, run_load, validate

__all__ = ["nginx"]  # the fixture, used by name


def urls_file(workdir: Path, server: NginxStatic) -> str:
    """A --urls list: three requests for the static file to one for the other."""
    path = workdir / "clients.urls"
    path.write_text(f"3 {server.base_url}/{STATIC_FILE}\n1 {server.base_url}/{OTHER_FILE}\n")
    return str(path)


def assert_between(merged: dict[str, Any], clients: list[dict[str, Any]], what: str) -> None:
    """A percentile of the union lies between the clients' own; min and max are theirs."""
    for name in ("p50", "p99", "p99_9"):
        own = [client[name] for client in clients]
        assert min(own) <= merged[name] <= max(own), f"{what} {name}"
    assert merged["min"] == min(client["min"] for client in clients), what
    assert merged["max"] == max(client["max"] for client in clients), what


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
    for clients in (closed, opened):
        merged = merge_documents(clients, load_binary)
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
        assert_between(merged["latency_us"], [c["latency_us"] for c in clients], "latency")
        for index, body in enumerate((STATIC_BODY, OTHER_BODY)):
            url = merged["by_url"][index]
            own = [c["by_url"][index] for c in clients]
            assert url["requests_completed"] == sum(u["requests_completed"] for u in own)
            assert url["document_length_bytes"] == len(body)
            assert_between(url["latency_us"], [u["latency_us"] for u in own], url["path"])
        shares = [url["requests_completed"] for url in merged["by_url"]]
        assert shares == [completed * 3 // 4, completed // 4]
    rate = merged["rate"]
    assert rate["target_per_s"] == 3000
    assert rate["scheduled_requests"] == 400
    uncorrected = [c["latency_uncorrected_us"] for c in opened]
    assert_between(merged["latency_uncorrected_us"], uncorrected, "uncorrected")
    assert merge_documents(closed, load_binary)["rate"] is None


def test_the_lab_reads_and_prints_a_merged_result(load_binary: Path, nginx: NginxStatic) -> None:
    url = f"{nginx.base_url}/{STATIC_FILE}"
    clients = [LoadResult.from_document(run_load(load_binary, "-n", "400", "-c", "2", url))] * 2
    merged = merge_loads(clients, load_binary)
    assert merged.requests_completed == 800
    assert merged.status_counts == {"200": 800}
    assert merged.errors_and_statuses == {}
    # The same run twice: the same histogram twice, so the same percentiles, min, mean and max.
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
        merge_documents([closed, opened], load_binary)
    version_2 = {
        key: value
        for key, value in closed.items()
        if key not in ("connection_histograms_us", "latency_uncorrected_histogram_us", "clients")
    } | {"version": 2}
    LoadResult.from_document(version_2)  # still read
    with pytest.raises(LoadGeneratorError, match=r"client 2's result \(stdin\) is JSON version 2"):
        merge_documents([closed, version_2], load_binary)
    with pytest.raises(LoadGeneratorError, match="no client's result"):
        merge_documents([], load_binary)
    # A damaged document: one line naming what is wrong, no traceback.
    without_phases = {key: value for key, value in closed.items() if key != "connection_times_us"}
    with pytest.raises(LoadGeneratorError, match=r"client 2's result .* no 'connection_times_us'"):
        merge_documents([closed, without_phases], load_binary)
    garbled = closed | {"latency_histogram_us": "not a histogram"}
    with pytest.raises(LoadGeneratorError, match=r"client 1's result \(stdin\): not a histogram"):
        merge_documents([garbled, closed], load_binary)


def test_a_load_generator_without_merge_is_named(workdir: Path) -> None:
    """An older layerbench-load (no merge subcommand): what to install, in one line."""
    old = workdir / "layerbench-load"
    old.write_text("#!/bin/sh\necho \"error: unexpected argument 'merge' found\" >&2\nexit 2\n")
    old.chmod(0o755)
    with pytest.raises(LoadGeneratorError, match=r"cannot merge load documents.*of one release"):
        merge_documents([{"version": 3}], old)
