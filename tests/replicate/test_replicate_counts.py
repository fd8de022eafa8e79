"""``replicate --counts``: 2 or more. One count has no spread, so a claim about what a request
costs could only be inconclusive: 1 is refused in one line saying so (a usage error, exit 2),
before anything runs."""

import pytest

from layerbench.cli.main import run


def test_one_count_is_refused_saying_why(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        run(["replicate", "django-preload", "--measure", "instructions", "--counts", "1"])
    assert exited.value.code == 2
    err = capsys.readouterr().err
    (line,) = [line for line in err.splitlines() if line.startswith("layerbench: error:")]
    assert "1 count has no spread to judge a claim on" in line and "2 to 5" in line


def test_two_counts_are_taken(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["replicate", "django-preload", "--measure", "instructions", "--counts", "2"]
    assert run([*argv, "--command"]) == 0
    assert "--measure-counts 2" in capsys.readouterr().out
