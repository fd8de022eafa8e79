"""`smoke --profile` against a baseline saved with `--profile`: a calibrated change (every
request also runs `calibrated_extra_work`, some milliseconds of CPU) comes out on top of what
grew, as the first function and in the first layer, the site's; the difference flame graph is
written where `--profile-diff` says, a well-formed SVG; and the baseline keeps its profile."""

import json
from pathlib import Path
from xml.etree import ElementTree

import pytest

from tests.smoke_runs import shop, smoke

pytestmark = pytest.mark.services

RUN = ["-d", "0.5", "--warmup", "0.2", "--repeats", "2", "--profile"]


def test_a_calibrated_change_is_on_top_of_the_difference(tmp_path: Path) -> None:
    saved = smoke(*shop("--baseline", "b.json", "--save", *RUN), cwd=tmp_path)
    assert saved.returncode == 0, saved.stderr
    baseline = json.loads((tmp_path / "b.json").read_text())
    assert baseline["profiles"]["/"]["samples"] > 0
    changed = smoke(
        *shop("shop.slower:application", "--baseline", "b.json", "--profile-diff", "d.svg", *RUN),
        cwd=tmp_path,
    )
    assert changed.returncode in (0, 1), changed.stderr  # slower, or too few repeats to say
    lines = changed.stdout.splitlines()
    start = lines.index("/: what grew most since the baseline (µs/req, now - baseline)")
    below = [line.split() for line in lines[start + 1 :]]
    layer = next(words for words in below if words[0] == "layer")
    function = next(words for words in below if words[0] == "function")
    assert layer[:2] == ["layer", "site:"]
    assert function[:2] == ["function", "calibrated_extra_work"]
    assert float(function[-1].replace(",", "")) > 0
    svg = ElementTree.parse(tmp_path / "d.svg").getroot()
    assert svg.tag.endswith("svg")
    assert "/: now against the baseline" in ElementTree.tostring(svg, encoding="unicode")
