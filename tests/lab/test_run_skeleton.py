"""The run skeleton's measured run (:mod:`layerbench.lab.run_skeleton`) with a document saving,
as writes and cluster use it: the file after every step, stdout once at the end, an
interruption recorded and saved, the work directory removed however the run ends."""

import json
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from layerbench.lab.run_skeleton import NO_SAVING, DocumentSaving, measured_run
from layerbench.typed_documents import JsonObject


@dataclass
class Steps:
    steps: list[int] = field(default_factory=list)
    conditions: JsonObject = field(default_factory=dict)
    finished_at: str | None = None
    interrupted: bool = False

    def to_dict(self) -> JsonObject:
        return {"steps": self.steps, "interrupted": self.interrupted, "end": self.finished_at}


def test_a_document_saving_writes_after_every_step_and_at_the_end(tmp_path: Path) -> None:
    path = tmp_path / "run.json"
    result = Steps()
    seen = []
    with measured_run(result, DocumentSaving(path), prefix="layerbench-test-") as run:
        workdir = run.workdir
        for step in (1, 2):
            result.steps.append(step)
            run.checkpoint()
            seen.append(json.loads(path.read_text())["steps"])
    assert seen == [[1], [1, 2]]
    saved = json.loads(path.read_text())
    assert saved["end"] is not None and saved["interrupted"] is False
    assert not workdir.exists()


def test_an_interrupted_run_is_saved_as_interrupted(tmp_path: Path) -> None:
    path = tmp_path / "run.json"
    result = Steps()
    with (
        pytest.raises(KeyboardInterrupt),
        measured_run(result, DocumentSaving(path), prefix="layerbench-test-") as run,
    ):
        workdir = run.workdir
        result.steps.append(1)
        raise KeyboardInterrupt
    assert json.loads(path.read_text()) == {
        "steps": [1],
        "interrupted": True,
        "end": result.finished_at,
    }
    assert not workdir.exists()


def test_stdout_gets_the_document_once_at_the_end(capsys: pytest.CaptureFixture[str]) -> None:
    result = Steps()
    with measured_run(result, DocumentSaving("-"), prefix="layerbench-test-") as run:
        result.steps.append(1)
        run.checkpoint()
        assert capsys.readouterr().out == ""
    assert json.loads(capsys.readouterr().out)["steps"] == [1]


def test_no_saving_writes_nothing(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with (
        pytest.raises(RuntimeError),
        measured_run(Steps(), NO_SAVING, prefix="layerbench-test-") as run,
    ):
        run.checkpoint()
        raise RuntimeError("the run failed")
    assert capsys.readouterr().out == ""
