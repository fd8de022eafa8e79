"""The results database reads a run's document through the kind a slice registered
(store/run_summary.py): the store names no experiment."""

from collections.abc import Mapping
from typing import Any

import pytest

# Importing a slice registers its kind: the ladder's and the matrix's are known here.
import layerbench.ladder
import layerbench.matrix  # noqa: F401
from layerbench.errors import ConfigError
from layerbench.store import run_summary
from layerbench.store.run_summary import (
    RungTrials,
    RunKind,
    RunSummary,
    register_kind,
    summarize_document,
)
from layerbench.typed_documents import JsonObject


def _toy(document: JsonObject) -> RunSummary:
    rates: Any = document["rates"]
    trials = RungTrials("all", "ok", tuple(float(rate) for rate in rates))
    return RunSummary("toy", None, None, False, "none", "", "a toy", (trials,))


def _is_toy(document: Mapping[str, object]) -> bool:
    return "rates" in document


def test_a_kind_registered_by_a_slice_is_read_and_its_wrong_field_named(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(run_summary, "_KINDS", dict(run_summary._KINDS))
    register_kind(RunKind("toy", "rates", _is_toy, _toy))
    assert summarize_document({"rates": [1, 2.5]}).rungs[0].rates == (1.0, 2.5)
    with pytest.raises(ConfigError) as wrong:
        summarize_document({"rates": 5})
    assert str(wrong.value) == (
        "a layerbench document with a wrong field: 'int' object is not iterable"
    )
    with pytest.raises(ConfigError) as refused:
        summarize_document({"neither": True})
    assert str(refused.value) == (
        "not a layerbench ladder or matrix or toy document (no rungs, no cells, no rates)"
    )
