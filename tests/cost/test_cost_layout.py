"""A count does not depend on where it is made from: a counted child is given a fixed
environment (the caller's variables only when named) and paths of the same length whatever the
temporary directory (:mod:`layerbench.cost.cost_run`)."""

from pathlib import Path

import pytest

from layerbench.cost.cost_run import (
    COUNTED_PATH_LENGTH,
    FIXED_ENVIRONMENT,
    child_environment,
    counted_base,
    repeat_directory,
)


def test_the_callers_environment_reaches_the_child_only_when_named(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("SETTINGS_MODULE", "shop.settings")
    monkeypatch.setenv("CI_JOB_URL", "https://ci.example/jobs/1234567")
    monkeypatch.delenv("PYTHONPATH", raising=False)
    given = child_environment({"APP": "x"}, ("SETTINGS_MODULE", "NOT_SET_ANYWHERE"))
    assert given == {**FIXED_ENVIRONMENT, "SETTINGS_MODULE": "shop.settings", "APP": "x",
                     "PYTHONHASHSEED": "0"}  # fmt: skip


@pytest.mark.parametrize("parent", ["/tmp", "/home/runner/work/_temp/a-much-longer-directory"])
def test_every_repeat_directory_has_the_same_length_of_path(parent: str) -> None:
    workdir = Path(parent) / "layerbench-cost-abcd1234"
    base = counted_base(workdir)
    assert base.parent == workdir
    for number in (1, 9, 10, 100):
        assert len(str(repeat_directory(base, number))) == COUNTED_PATH_LENGTH
