"""`matrix --profile` end to end: two gunicorn configurations on the orm rung, each cell's real
workers sampled by py-spy; a layer table per cell with SQLAlchemy in it, the profiles in the
document, and its HTML report's flame graphs and the second column's difference graph against
the first's drawn in headless Chromium. One short pass: the ladder's e2e test is the feature's
thorough one."""

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from selenium.webdriver.common.by import By

pytestmark = pytest.mark.services

LAYERBENCH = [sys.executable, "-m", "layerbench.cli"]
COLUMNS = ("gunicorn", "gunicorn:workers=1")


def test_each_cell_has_its_layers_and_the_report_draws_them(tmp_path: Path, browser: Any) -> None:
    completed = subprocess.run(
        [*LAYERBENCH, "matrix", "--servers", ",".join(COLUMNS), "--rung", "orm", "-c", "10",
         "-d", "1.5", "--warmup", "0.5", "--repeats", "1", "--profile", "--profile-rate", "250",
         "--json", "m.json"],
        capture_output=True, text=True, cwd=tmp_path, timeout=600, check=False,
    )  # fmt: skip
    assert completed.returncode == 0, completed.stderr
    document: dict[str, Any] = json.loads((tmp_path / "m.json").read_text())
    assert document["conditions"]["profile"]["mode"] == "gil"
    for column, cell in zip(COLUMNS, document["cells"], strict=True):
        assert cell["column"] == column
        layers = {layer["layer"]: layer for layer in cell["profile"]["layers"]}
        assert sum(layer["self_samples"] for layer in layers.values()) > 0
        assert "SQLAlchemy" in layers and "gunicorn" in layers
        heading = f"{column} c=10: "
        assert any(line.startswith(heading) for line in completed.stdout.splitlines())
    report = tmp_path / "report.html"
    done = subprocess.run(
        [*LAYERBENCH, "report", str(tmp_path / "m.json"), "-o", str(report)],
        capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    browser.get(report.as_uri())
    graphs = browser.find_elements(By.CSS_SELECTOR, "div.flame > svg")
    assert len(graphs) == len(COLUMNS) + 1  # a graph per cell, the second against the first
    for graph in graphs:
        assert graph.size["width"] > 1000 and graph.size["height"] > 50
        assert len(graph.find_elements(By.CSS_SELECTOR, "g > rect")) > 5
    difference = browser.find_element(By.CSS_SELECTOR, "div.flame.diff > svg")
    title = difference.find_element(By.CSS_SELECTOR, "title").get_attribute("textContent")
    assert f"{COLUMNS[1]} c=10 against {COLUMNS[0]} c=10" in title
