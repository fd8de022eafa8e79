"""A ladder or matrix document of every version this layerbench has written loads back into
its result and reports (terminal table, HTML, Markdown, CSV, JSON, the results database) with
the figures it holds. Each earlier version is today's document less the fields added since (the
history in results/ladder_result.py and results/matrix_result.py)."""

import csv
import io
import json
from pathlib import Path
from typing import Any

import pytest

from layerbench.ladder.ladder_result import LADDER_JSON_VERSION, LadderResult
from layerbench.ladder.ladder_table import format_ladder_table
from layerbench.matrix.matrix_result import MATRIX_JSON_VERSION, MatrixResult
from layerbench.matrix.matrix_table import format_matrix_table
from layerbench.report.exports import to_csv, to_json, to_markdown
from layerbench.report.html_report import html_report
from layerbench.report.stored_result import read_result
from layerbench.results.trials import Repeated
from layerbench.store.results_db import ResultsDatabase
from tests.report_documents import full_ladder, seed_000_matrix
from tests.stored_runs import LADDER_V1

# Per version, the fields of a rung (or cell) that came after it.
LADDER_LATER = {
    1: ("roles", "sampler_cpu_percent", "change_vs_top", "latency_p99_9_ms", "repeats", "spread",
        "noisy", "usage_interval_s", "app", "representative_trial", "vs_above", "profile"),
    2: ("change_vs_top", "latency_p99_9_ms", "repeats", "spread", "noisy", "usage_interval_s",
        "app", "representative_trial", "vs_above", "profile"),
    3: ("usage_interval_s", "app", "representative_trial", "vs_above", "profile"),
    4: ("representative_trial", "vs_above", "profile"),
    5: ("vs_above", "profile"),
    6: ("profile",),
    7: (),
}  # fmt: skip
MATRIX_LATER = {
    1: (
        "repeats",
        "spread",
        "noisy",
        "usage_interval_s",
        "app",
        "representative_trial",
        "vs_first",
        "profile",
    ),
    2: ("usage_interval_s", "app", "representative_trial", "vs_first", "profile"),
    3: ("representative_trial", "vs_first", "profile"),
    4: ("vs_first", "profile"),
    5: ("profile",),
    6: (),
}


def as_version(document: dict[str, Any], version: int, later: tuple[str, ...]) -> dict[str, Any]:
    old: dict[str, Any] = json.loads(json.dumps(document))
    old["version"] = version
    for item in old.get("rungs") or old["cells"]:
        for key in later:
            item.pop(key, None)
    return old


def documents() -> list[tuple[str, dict[str, Any]]]:
    ladder, matrix = full_ladder().to_dict(), seed_000_matrix().to_dict()
    return [
        *[(f"ladder v{v}", as_version(ladder, v, LADDER_LATER[v])) for v in LADDER_LATER],
        ("ladder v1 by hand", LADDER_V1),
        *[(f"matrix v{v}", as_version(matrix, v, MATRIX_LATER[v])) for v in MATRIX_LATER],
    ]


def test_every_version_written_is_covered() -> None:
    assert max(LADDER_LATER) == LADDER_JSON_VERSION and max(MATRIX_LATER) == MATRIX_JSON_VERSION


@pytest.mark.parametrize(("name", "document"), documents(), ids=[n for n, _ in documents()])
def test_a_document_of_every_version_loads_and_reports(
    name: str, document: dict[str, Any], tmp_path: Path
) -> None:
    result = read_result(document)
    items = document.get("rungs") or document["cells"]
    measured = [item for item in items if item.get("requests_per_s") is not None]
    shown: list[Repeated]
    if isinstance(result, LadderResult):
        assert "rungs" in document
        table = format_ladder_table(result)
        shown = list(result.rungs)
        assert [rung.rung for rung in result.rungs] == [item["rung"] for item in items]
    else:
        assert isinstance(result, MatrixResult)
        table = format_matrix_table(result)
        shown = list(result.cells)
    # The figures as saved: each item's req/s, its errors, its trials.
    assert [item.requests_per_s for item in shown] == [item.get("requests_per_s") for item in items]
    for item, saved in zip(shown, items, strict=True):
        trials = (
            len(saved["repeats"]) if saved.get("repeats") else int(item.requests_per_s is not None)
        )
        assert len(item.trials) == trials
        if saved.get("errors") is not None:
            assert item.load is not None and item.load.errors == saved["errors"]
    rows = list(csv.DictReader(io.StringIO(to_csv(result))))
    assert [float(row["requests_per_s"]) for row in rows if row["requests_per_s"]] == [
        item["requests_per_s"] for item in measured
    ]
    if any(item.get("roles") for item in items):
        # CPU and memory by role, as saved (version 2 on).
        first = next(item for item in items if item.get("roles"))
        row = rows[items.index(first)]
        assert float(row["server_cpu_percent"]) == pytest.approx(
            first["roles"]["server"]["cpu_percent"]
        )
        assert "server" in table
    markdown = to_markdown(result).splitlines()
    # Its table (a row per item), then the memory per worker and what the run was measured under.
    assert len(markdown[: markdown.index("")]) == 2 + len(items)
    assert markdown[-1].startswith("Measured on: ")
    page = html_report(result)
    assert page.count("<svg") >= 2 and "<script" not in page
    assert json.loads(to_json(result))["version"] in (LADDER_JSON_VERSION, MATRIX_JSON_VERSION)
    with ResultsDatabase(tmp_path / "results.sqlite3") as database:
        stored = database.run(database.add_run(document))
        assert [rung.rates for rung in stored.rungs if rung.rates] == [
            tuple(float(trial["requests_per_s"]) for trial in item["repeats"])
            if item.get("repeats")
            else (item["requests_per_s"],)
            for item in measured
        ]


def test_the_current_version_reads_back_into_the_same_document() -> None:
    for result in (full_ladder(), seed_000_matrix()):
        document = json.loads(json.dumps(result.to_dict()))
        assert json.loads(json.dumps(read_result(document).to_dict())) == document


def test_the_application_reads_back_and_before_version_4_it_is_the_bare_one() -> None:
    current = json.loads(json.dumps(full_ladder().to_dict()))
    for rung in current["rungs"]:
        rung["app"] = "django"
    current["rungs"][-1] |= {"status": "not applicable", "message": "not applicable to django"}
    ladder = read_result(current)
    assert isinstance(ladder, LadderResult)
    assert {rung.app for rung in ladder.rungs} == {"django"}
    assert ladder.rungs[-1].status.value == "not applicable"
    assert "not applicable to django" in format_ladder_table(ladder)
    old = read_result(as_version(current, 3, LADDER_LATER[3]))
    assert isinstance(old, LadderResult) and {rung.app for rung in old.rungs} == {"bare"}
