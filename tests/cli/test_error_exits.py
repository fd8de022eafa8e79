"""cli/main.py is the one place an error becomes a message and an exit status: a command raises
errors.py's typed errors, and every one of them comes out of ``run`` the same way, whichever
command raised it."""

import argparse

import pytest

from layerbench.cli import ids_cmd
from layerbench.cli.main import run
from layerbench.errors import (
    ConfigError,
    IncompleteRunError,
    LayerbenchError,
    NothingMeasuredError,
    ServerStartError,
)

CASES = [
    (LayerbenchError("the load generator crashed"), 1, "error: the load generator crashed"),
    (ConfigError("unknown rung nope"), 2, "error: unknown rung nope"),
    (
        NothingMeasuredError(ServerStartError("gunicorn", "it exited")),
        2,
        "error: gunicorn did not start: it exited",
    ),
    (
        IncompleteRunError("the mix was not predicted: a rung was not measured"),
        1,
        "the mix was not predicted: a rung was not measured",
    ),
]


@pytest.mark.parametrize(
    ("error", "status", "message"), CASES, ids=[type(case[0]).__name__ for case in CASES]
)
def test_a_raised_error_is_one_line_and_its_status(
    error: LayerbenchError,
    status: int,
    message: str,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    def raise_it(args: argparse.Namespace) -> int:
        raise error

    monkeypatch.setattr(ids_cmd, "cmd_gen", raise_it)  # the parser takes the handler anew
    assert run(["ids", "gen"]) == status
    assert capsys.readouterr() == ("", f"layerbench: {message}\n")
