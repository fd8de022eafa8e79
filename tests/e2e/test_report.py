"""Reports from real ladder and matrix results: the HTML is self-contained (no script, nothing
fetched), and in headless Chromium its charts are drawn (bars with widths in proportion,
latency curves, CPU stacks); Markdown and CSV carry every rung. The screenshot is kept in
``test-artifacts/``."""

import csv
import io
import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from selenium.webdriver.common.by import By

from layerbench.report.exports import to_csv, to_markdown
from layerbench.report.html_report import html_report
from layerbench.report.stored_result import read_result
from tests.cli_lines import said
from tests.conftest import artifacts

pytestmark = pytest.mark.services

LAYERBENCH = [sys.executable, "-m", "layerbench.cli"]


@pytest.fixture(scope="module")
def ladder_document(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """A real ladder run: three rungs, two repeats each."""
    directory = tmp_path_factory.mktemp("ladder")
    completed = subprocess.run(
        [*LAYERBENCH, "ladder", "-d", "1", "--warmup", "0.3", "--repeats", "2",
         "--rungs", "string,db-raw,template", "--json", "l.json"],
        capture_output=True, text=True, cwd=directory, timeout=300, check=False,
    )  # fmt: skip
    assert completed.returncode == 0, completed.stderr
    document: dict[str, Any] = json.loads((directory / "l.json").read_text())
    return document


def test_the_html_is_self_contained(ladder_document: dict[str, Any]) -> None:
    page = html_report(read_result(ladder_document))
    assert "<script" not in page
    assert not re.search(r"""(src|href)=["']?(https?:)?//""", page)
    assert page.count("<svg") == 4


def test_the_charts_are_drawn_in_chromium(
    ladder_document: dict[str, Any], browser: Any, tmp_path: Path
) -> None:
    report = tmp_path / "report.html"
    completed = subprocess.run(
        [*LAYERBENCH, "report", str(_saved(ladder_document, tmp_path)), "-o", str(report)],
        capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert completed.returncode == 0, completed.stderr
    browser.get(report.as_uri())
    charts = browser.find_elements(By.CSS_SELECTOR, "svg.chart")
    assert len(charts) == 4
    assert all(chart.size["width"] > 500 and chart.size["height"] > 50 for chart in charts)
    # The req/s bars: one per rung, drawn with widths in proportion to their rates.
    bars = charts[0].find_elements(By.CSS_SELECTOR, "rect.bar")
    rates = [rung["requests_per_s"] for rung in ladder_document["rungs"]]
    assert len(bars) == 3
    widths = [bar.rect["width"] for bar in bars]
    assert all(width > 1 for width in widths)
    for width, rate in zip(widths, rates, strict=True):
        assert width / widths[0] == pytest.approx(rate / rates[0], rel=0.05)
    # The latency curves: one line per rung, through its percentiles.
    lines = charts[1].find_elements(By.CSS_SELECTOR, "polyline.series")
    assert len(lines) == 3
    assert all(line.rect["width"] > 100 for line in lines)
    # CPU per 1,000 requests: a segment per role (server, client) per rung.
    assert len(charts[2].find_elements(By.CSS_SELECTOR, "rect.bar")) == 6
    assert charts[3].find_elements(By.CSS_SELECTOR, "rect.bar")
    assert browser.save_screenshot(str(artifacts() / "report.png"))


def test_markdown_and_csv_carry_every_rung(ladder_document: dict[str, Any]) -> None:
    rows = list(csv.DictReader(io.StringIO(to_csv(read_result(ladder_document)))))
    assert [row["rung"] for row in rows] == ["string", "db-raw", "template"]
    assert all(float(row["requests_per_s"]) > 0 for row in rows)
    assert all(float(row["server_pss_mib"]) > 0 for row in rows)
    markdown = to_markdown(read_result(ladder_document)).splitlines()
    table = markdown[: markdown.index("")]
    assert len(table) == 2 + 3
    assert table[2].startswith("| string | gunicorn | ok |")
    # Then the memory per worker, and what the run was measured under.
    assert markdown[-2].startswith("Run: server gunicorn; concurrency "), markdown[-2]
    assert markdown[-1].startswith("Measured on: machine "), markdown[-1]


def test_a_wrong_source_or_output_is_a_one_line_error(tmp_path: Path) -> None:
    not_results = tmp_path / "x.json"
    not_results.write_text("{}")
    for args, message in [
        ([str(not_results), "-o", str(tmp_path / "r.html")], "is not a layerbench ladder"),
        ([str(not_results), "-o", str(tmp_path / "r.pdf")], "the output ends in one of"),
        ([str(tmp_path / "none.json"), "-o", str(tmp_path / "r.html")], "cannot read"),
    ]:
        completed = subprocess.run(
            [*LAYERBENCH, "report", *args], capture_output=True, text=True, timeout=60, check=False
        )
        assert completed.returncode == 2  # a usage error
        assert (
            said(completed.stderr).startswith("layerbench: error: ") and message in completed.stderr
        )
        assert len(said(completed.stderr).splitlines()) == 1


def _saved(document: dict[str, Any], directory: Path) -> Path:
    path = directory / "ladder.json"
    path.write_text(json.dumps(document))
    return path
