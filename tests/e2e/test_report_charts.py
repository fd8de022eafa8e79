"""The HTML report on the README's own experiments, in headless Chromium: the ``--full`` ladder
(12 series), seed 000's matrix (long column labels) and seed 002's (one concurrency level, a
column not installed and one failed). Every series is told apart by its style and named in
full, one level is drawn as bars, failures show their reason, and no text leaves its chart.
Screenshots of the whole pages are kept in ``test-artifacts/``."""

from pathlib import Path
from typing import Any

import pytest
from selenium.webdriver.common.by import By

from layerbench.report.html_report import html_report
from layerbench.report.stored_result import read_result
from layerbench.rungs.definitions import FULL_RUNG_NAMES
from tests.conftest import artifacts
from tests.report_documents import (
    DIED,
    NOT_INSTALLED,
    SEED_000_COLUMNS,
    SEED_002_COLUMNS,
    full_ladder,
    seed_000_matrix,
    seed_002_matrix,
)

pytestmark = pytest.mark.services

# Texts of every chart that reach beyond its drawing, and each chart's texts.
CLIPPED_TEXTS = """
const clipped = [];
for (const svg of document.querySelectorAll('svg.chart')) {
  const box = svg.getBoundingClientRect();
  for (const text of svg.querySelectorAll('text')) {
    const r = text.getBoundingClientRect();
    if (r.left < box.left - 0.5 || r.right > box.right + 0.5 ||
        r.top < box.top - 0.5 || r.bottom > box.bottom + 0.5) {
      clipped.push(text.textContent);
    }
  }
}
return clipped;
"""
CHART_TEXTS = """
return Array.from(document.querySelectorAll('svg.chart')).map(
  svg => Array.from(svg.querySelectorAll('text')).map(text => text.textContent));
"""
# Each line's look: its colour, its dashes, and the shape of its markers.
SERIES_STYLES = """
return Array.from(arguments[0].querySelectorAll('g.line')).map(g => {
  const line = g.querySelector('polyline');
  const marker = g.querySelector('.marker');
  return [line.getAttribute('stroke'), line.getAttribute('stroke-dasharray') || '',
          marker ? marker.getAttribute('data-shape') : ''];
});
"""


def _open(browser: Any, document: dict[str, Any], name: str, directory: Path) -> list[list[str]]:
    """The report in the browser, its screenshot kept (the whole page); each chart's texts."""
    page = directory / f"{name}.html"
    page.write_text(html_report(read_result(document)))
    browser.get(page.as_uri())
    height = browser.execute_script("return document.documentElement.scrollHeight")
    browser.set_window_size(1000, height + 150)
    assert browser.execute_script(CLIPPED_TEXTS) == []
    screenshot = artifacts() / f"{name}.png"
    assert browser.save_screenshot(str(screenshot))
    assert screenshot.stat().st_size > 10_000
    texts: list[list[str]] = browser.execute_script(CHART_TEXTS)
    return texts


def _distinct_styles(chart: Any, browser: Any, count: int) -> None:
    styles = [tuple(style) for style in browser.execute_script(SERIES_STYLES, chart)]
    assert len(styles) == count
    assert len(set(styles)) == count, styles


def test_the_full_ladder_names_and_tells_apart_all_its_rungs(browser: Any, tmp_path: Path) -> None:
    document = full_ladder().to_dict()
    texts = _open(browser, document, "report-full-ladder", tmp_path)
    charts = browser.find_elements(By.CSS_SELECTOR, "svg.chart")
    latency = charts[1]
    assert set(FULL_RUNG_NAMES) <= set(texts[1]), texts[1]
    _distinct_styles(latency, browser, len(FULL_RUNG_NAMES))
    # The static rung's bar label, note included, whole.
    assert "36,574 req/s (noisy)" in texts[0]
    # Memory by role and name, never by PID.
    memory = texts[3]
    assert "server: gunicorn, process 2 of 3" in memory
    assert "database: mariadbd" in memory
    assert not any(str(pid) in " ".join(memory) for pid in range(1001, 1010))
    conditions = browser.find_element(By.ID, "conditions").text
    assert "cpu_governor unknown" in conditions
    assert "None" not in conditions


def test_seed_000s_matrix_names_every_configuration_in_full(browser: Any, tmp_path: Path) -> None:
    texts = _open(browser, seed_000_matrix().to_dict(), "report-seed-000-matrix", tmp_path)
    charts = browser.find_elements(By.CSS_SELECTOR, "svg.chart")
    for chart_texts in texts[:2]:  # req/s and p99 against concurrency
        assert set(SEED_000_COLUMNS) <= set(chart_texts), chart_texts
    _distinct_styles(charts[0], browser, 4)
    _distinct_styles(charts[1], browser, 4)


def test_seed_002s_single_level_is_drawn_as_bars_with_failures_and_their_reason(
    browser: Any, tmp_path: Path
) -> None:
    texts = _open(browser, seed_002_matrix().to_dict(), "report-seed-002-matrix", tmp_path)
    charts = browser.find_elements(By.CSS_SELECTOR, "svg.chart")
    assert browser.find_elements(By.CSS_SELECTOR, "g.line") == []
    rates = charts[0]
    assert len(rates.find_elements(By.CSS_SELECTOR, "rect.bar")) == 5
    assert set(SEED_002_COLUMNS) <= set(texts[0]), texts[0]
    assert f"skipped: {NOT_INSTALLED}" in texts[0]
    assert f"error: {DIED}" in texts[0]
    table = browser.find_element(By.TAG_NAME, "table").text
    assert NOT_INSTALLED in table and DIED in table
