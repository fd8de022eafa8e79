"""The paired verdicts the terminal shows (a ladder's "vs above", a matrix's columns against the
first) are in the JSON document, CSV and the HTML report too, with their ratio, interval,
passes and confidence (layerbench/results/paired_verdict.py)."""

import copy
import csv
import io
import json
from html import escape
from typing import Any

import pytest

from layerbench.ladder.ladder_result import LADDER_JSON_VERSION, LadderResult
from layerbench.matrix.matrix_result import MATRIX_JSON_VERSION, MatrixResult
from layerbench.report.exports import to_csv, to_json
from layerbench.report.html_report import html_report
from layerbench.report.stored_result import read_result
from layerbench.stats.comparison import RungComparison
from tests.report_documents import full_ladder, seed_000_matrix

# The machine's speed in each of three passes: every column moves alike.
DRIFT = (1.0, 2.0, 0.5)


def drifting_matrix() -> MatrixResult:
    """The seed's matrix measured in three passes whose speed moves 4x, each cell's req/s
    scaled alike: its columns' ratios do not move."""
    document: dict[str, Any] = seed_000_matrix().to_dict()
    for cell in document["cells"]:
        first = cell["repeats"][0]
        cell["repeats"] = []
        for speed in DRIFT:
            trial = copy.deepcopy(first)
            trial["requests_per_s"] = first["requests_per_s"] * speed
            cell["repeats"].append(trial)
    result = read_result(document)
    assert isinstance(result, MatrixResult)
    return result


def check_csv(text: str, prefix: str, compared: list[RungComparison | None]) -> None:
    rows = list(csv.DictReader(io.StringIO(text)))
    assert len(rows) == len(compared)
    for row, comparison in zip(rows, compared, strict=True):
        if comparison is None:
            assert row[f"{prefix}verdict"] == "" and row[f"{prefix}ratio"] == ""
            continue
        assert row[f"{prefix}verdict"] == comparison.judged.word
        assert float(row[f"{prefix}ratio"]) == pytest.approx(comparison.ratio, abs=1e-4)
        assert int(row[f"{prefix}passes"]) == comparison.trials


def check_json(
    items: list[dict[str, Any]], key: str, compared: list[RungComparison | None]
) -> None:
    for item, comparison in zip(items, compared, strict=True):
        if comparison is None:
            assert item[key] is None
            continue
        assert item[key]["text"] == comparison.verdict
        assert item[key]["verdict"] == comparison.judged.word
        assert item[key]["passes"] == comparison.trials
        assert item[key]["confidence"] == 0.95


def test_a_ladders_vs_above_verdicts_are_in_json_csv_and_html() -> None:
    result: LadderResult = full_ladder()
    compared = result.compared_vs_above()
    assert any(comparison is not None and comparison.decided for comparison in compared)
    check_csv(to_csv(result), "vs_above_", compared)
    document = json.loads(to_json(result))
    assert document["version"] == LADDER_JSON_VERSION
    check_json(document["rungs"], "vs_above", compared)
    html = html_report(result)
    for comparison in compared:
        if comparison is not None:
            assert escape(comparison.verdict) in html


def test_a_matrixs_columns_against_the_first_are_in_json_csv_and_html() -> None:
    result = drifting_matrix()
    compared = result.compared_vs_first()
    first = result.first_column
    assert [c is None for c in compared] == [cell.column == first for cell in result.cells]
    # A 4x drift between passes, alike for every column: the pairs see through it.
    decided = [comparison for comparison in compared if comparison is not None]
    assert decided and all(comparison.decided for comparison in decided)
    check_csv(to_csv(result), "vs_first_", compared)
    document = json.loads(to_json(result))
    assert document["version"] == MATRIX_JSON_VERSION
    check_json(document["cells"], "vs_first", compared)
    html = html_report(result)
    assert escape(f"vs {first}, paired") in html
    for comparison in decided:
        assert escape(comparison.verdict) in html


def test_the_looks_of_until_decided_are_kept_and_read_back() -> None:
    document: dict[str, Any] = drifting_matrix().to_dict()
    document["until_decided"] = {
        "passes": 3, "looks": 2, "confidence": 1 - 0.05 / 6, "decided": 6, "comparisons": 9,
        "max_time_s": 60.0, "time_up": True,
    }  # fmt: skip
    result = read_result(document)
    assert result.until_decided is not None and result.confidence == pytest.approx(1 - 0.05 / 6)
    again = result.to_dict()
    assert again["until_decided"] == document["until_decided"]
    assert all(
        cell["vs_first"] is None or cell["vs_first"]["confidence"] == result.confidence
        for cell in again["cells"]
    )
    assert "6 of 9 comparisons decided (--max-time 60 s was up)" in result.until_decided.summary()
