"""The counts a matrix makes one after another in its own thread (settled counts, and the
recounts of ``--measure-counts``) interrupted halfway (Ctrl-C raised inside a count, as it is on
the main thread): the counts finished are handed to ``kept`` before the interruption goes on.
The counts themselves are tested against real servers in test_first_requests_wide.py."""

from pathlib import Path
from typing import Any

import pytest

from layerbench.replicate import served_counts, settled_counts
from layerbench.replicate.second_run import SecondRun
from layerbench.rungs.definitions import LADDER
from layerbench.served.served_columns import CountedTarget
from layerbench.served.served_cost import ServedCost
from layerbench.typed_documents import JsonObject

RUNG = next(rung for rung in LADDER if rung.name == "string")


def _targets() -> list[CountedTarget]:
    return [CountedTarget(name, "gunicorn", object(), RUNG, "bare") for name in ("a", "b")]  # type: ignore[arg-type]


def test_the_settled_counts_finished_are_kept(
    workdir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    made: list[str] = []

    def count(target: CountedTarget, *_: Any) -> SecondRun:
        if len(made) == 3:  # a, b, a: then b's second count is interrupted
            raise KeyboardInterrupt
        made.append(target.label)
        return SecondRun(500, 1, 100, 2, 1000.0 + len(made), {}, 2)

    monkeypatch.setattr(settled_counts, "count_settled", count)
    kept: list[JsonObject] = []
    with pytest.raises(KeyboardInterrupt):
        settled_counts.settled_counts(
            _targets(), workdir, concurrency=1, counts=2, client_cpus=None, told=print,
            kept=kept.append,
        )  # fmt: skip
    document: Any = kept[0]
    assert len(kept) == 1
    counts = document["settled"]["counts"]
    assert [c["instructions_per_request"] for c in counts["a"]] == [1001.0, 1003.0]
    assert [c["instructions_per_request"] for c in counts["b"]] == [1002.0]


def test_the_recounts_finished_are_kept(workdir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    rounds: list[int] = []

    def measure(targets: list[CountedTarget], *_: Any, **__: Any) -> dict[str, ServedCost | str]:
        if len(rounds) == 1:  # the second recount interrupted
            raise KeyboardInterrupt
        rounds.append(1)
        return {"a": ServedCost({"server": 20.0}, {}), "b": "not counted: it died"}

    monkeypatch.setattr(served_counts, "measure_targets", measure)
    first: dict[str, ServedCost | str] = {"a": ServedCost({"server": 10.0}, {}), "b": "skipped"}
    kept: list[JsonObject] = []
    with pytest.raises(KeyboardInterrupt):
        served_counts.further_counts(
            _targets(), workdir, first, counts=3, measure="instructions", client_cpus=None,
            told=print, kept=kept.append,
        )  # fmt: skip
    document: Any = kept[0]
    assert len(kept) == 1
    counts = document["counts"]
    assert [c["instructions_per_request"] for c in counts["a"]] == [
        {"server": 10.0},
        {"server": 20.0},
    ]
    assert counts["b"] == [{"error": "skipped"}, {"error": "not counted: it died"}]
