"""`ladder --profile` end to end: the db-raw, orm, template and page rungs measured with py-spy
on the real gunicorn workers; a layer table per rung whose self shares add up to the whole,
SQLAlchemy's share on orm and not on db-raw, Jinja2's on template and not on orm; the run's
document keeps the profiles, and its HTML report draws the flame graphs and the orm - db-raw
difference graph in headless Chromium."""

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from selenium.webdriver.common.by import By

from tests.conftest import artifacts

pytestmark = pytest.mark.services

LAYERBENCH = [sys.executable, "-m", "layerbench.cli"]
RUNGS = ("db-raw", "orm", "template", "page")


@pytest.fixture(scope="module")
def profiled(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, dict[str, Any], Path]:
    """The command's output, its document, and the directory it ran in. Two trials of 3 s a
    rung, sampled 250 times a second: on an idle machine some 2,000 samples a rung, on a busy
    one still hundreds, so that a layer with 2 % of them (Jinja2 on template) is seen."""
    directory = tmp_path_factory.mktemp("profile")
    completed = subprocess.run(
        [*LAYERBENCH, "ladder", "--rungs", ",".join(RUNGS), "--profile", "--profile-rate", "250",
         "-d", "3", "--warmup", "0.5", "--repeats", "2", "--json", "l.json", "--label", "profiled"],
        capture_output=True, text=True, cwd=directory, timeout=600, check=False,
    )  # fmt: skip
    assert completed.returncode == 0, completed.stderr
    document: dict[str, Any] = json.loads((directory / "l.json").read_text())
    return completed.stdout, document, directory


def layers_of(document: dict[str, Any], rung: str) -> dict[str, dict[str, Any]]:
    (found,) = [r for r in document["rungs"] if r["rung"] == rung]
    return {layer["layer"]: layer for layer in found["profile"]["layers"]}


def test_each_rung_has_its_layers_and_each_layer_its_rungs(
    profiled: tuple[str, dict[str, Any], Path],
) -> None:
    output, document, _ = profiled
    for rung in RUNGS:
        # The table, after the ladder's, with its samples and a total of 100 %.
        heading = next(line for line in output.splitlines() if line.startswith(f"{rung}: "))
        assert "samples of the workers holding the GIL" in heading
        layers = layers_of(document, rung)
        samples = sum(layer["self_samples"] for layer in layers.values())
        (found,) = [r for r in document["rungs"] if r["rung"] == rung]
        assert samples == found["profile"]["samples"] > 0
        assert sum(layer["self_share"] for layer in layers.values()) == pytest.approx(1.0)
        for layer in layers.values():
            assert layer["self_share_low"] <= layer["self_share"] <= layer["self_share_high"]
        # CPU per request: the shares of the server's measured CPU per request.
        per_request = [layer["cpu_us_per_request"] for layer in layers.values()]
        assert all(value is not None and value >= 0 for value in per_request)
        assert "gunicorn" in layers
    assert "SQLAlchemy" in layers_of(document, "orm")
    assert "SQLAlchemy" not in layers_of(document, "db-raw")
    assert "Jinja2" in layers_of(document, "template")
    assert "Jinja2" not in layers_of(document, "orm")
    assert layers_of(document, "orm")["SQLAlchemy"]["self_share_low"] > 0.1


def test_the_report_draws_the_flame_graphs_and_the_difference(
    profiled: tuple[str, dict[str, Any], Path], browser: Any, tmp_path: Path
) -> None:
    _, _, directory = profiled
    report = tmp_path / "report.html"
    completed = subprocess.run(
        [*LAYERBENCH, "report", str(directory / "l.json"), "-o", str(report)],
        capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert completed.returncode == 0, completed.stderr
    browser.get(report.as_uri())
    graphs = browser.find_elements(By.CSS_SELECTOR, "div.flame > svg")
    # One per rung, and a difference graph per rung whose reference was profiled.
    assert len(graphs) == len(RUNGS) + 3
    for graph in graphs:
        assert graph.size["width"] > 1000
        assert graph.size["height"] > 100
        boxes = graph.find_elements(By.CSS_SELECTOR, "g > rect")
        assert len(boxes) > 10
        assert all(box.get_attribute("width") for box in boxes[:20])
    difference = browser.find_element(By.CSS_SELECTOR, "div.flame.diff > svg")
    assert "orm against db-raw" in difference.find_element(By.CSS_SELECTOR, "title").get_attribute(
        "textContent"
    )
    fills = {
        box.get_attribute("fill") for box in difference.find_elements(By.CSS_SELECTOR, "g > rect")
    }
    # Red where orm spends more of its samples than db-raw: SQLAlchemy's frames.
    assert any(fill.startswith("rgb(255,") and fill != "rgb(255,255,255)" for fill in fills)
    collapsed = browser.find_elements(By.CSS_SELECTOR, "details pre")
    assert len(collapsed) == len(RUNGS)
    assert browser.save_screenshot(str(artifacts() / "report-profiles.png"))
