"""``--until-decided [--max-time SECONDS]`` on every command that has it: a --max-time that is
not a number of seconds above 0, or one without --until-decided, is refused in one line, exit 2,
before anything starts."""

import io
from contextlib import redirect_stderr, redirect_stdout

import pytest

from layerbench.cli.main import run
from tests.cli_lines import said
from tests.smoke_runs import shop

COMMANDS = {
    "smoke": ["smoke", *shop("--against", "."), "--until-decided"],
    "ladder": ["ladder", "--apps", "bare,django", "--until-decided"],
    "matrix": ["matrix", "--servers", "gunicorn,uwsgi", "--until-decided"],
    "replicate": ["replicate", "mod_wsgi-daemon-modes", "--until-decided"],
}


def cli(*argv: str) -> tuple[int, str]:
    stderr = io.StringIO()
    with redirect_stdout(io.StringIO()), redirect_stderr(stderr):
        try:
            status = run(list(argv))
        except SystemExit as exit_:  # argparse's usage errors
            status = int(exit_.code or 0)
    return status, stderr.getvalue()


@pytest.mark.parametrize("command", COMMANDS)
@pytest.mark.parametrize("bad", ["0", "-5", "nan", "inf", "soon"])
def test_a_max_time_that_is_not_seconds_is_refused_in_one_line(command: str, bad: str) -> None:
    status, stderr = cli(*COMMANDS[command], "--max-time", bad)
    assert status == 2, stderr
    assert said(stderr).startswith("layerbench: error: argument --max-time: "), stderr
    assert len(said(stderr).splitlines()) == 1, stderr


@pytest.mark.parametrize("command", COMMANDS)
def test_a_max_time_without_until_decided_is_refused_in_one_line(command: str) -> None:
    argv = [arg for arg in COMMANDS[command] if arg != "--until-decided"]
    status, stderr = cli(*argv, "--max-time", "60")
    assert status == 2, stderr
    assert said(stderr) == "layerbench: error: --max-time goes with --until-decided\n"
