"""A stored run's load in words: a matrix run with ``--rerun-warmup`` says the warm-up before a
level measured again, not only the first one (the django-preload page said "after 0 s warm-up"
of a run whose second level had 30 s)."""

import json
from pathlib import Path

from layerbench.report.run_facts import load_facts
from layerbench.report.stored_result import read_result

RUNS = Path(__file__).resolve().parents[2] / "docs" / "experiments" / "runs"


def _duration(name: str) -> str:
    result = read_result(json.loads((RUNS / f"{name}.json").read_text()))
    return dict(load_facts(result))["duration"]


def test_a_rerun_warmup_is_said_beside_the_first() -> None:
    assert _duration("django-preload") == (
        "3 s measured per cell, after 0 s warm-up (30 s before a level measured again on the "
        "same start)"
    )


def test_a_run_without_one_says_only_its_warmup() -> None:
    assert "measured again" not in _duration("mod_python-lineup")
