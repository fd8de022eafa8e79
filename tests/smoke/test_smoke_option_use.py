"""An option of ``smoke`` that the chosen measure would not use is refused in one line, exit 2,
before anything is measured or written: never silently ignored, never a traceback."""

import json
from pathlib import Path

import pytest

from layerbench.cost.instructions_baseline import baseline_document
from layerbench.smoke.smoke_cost import current_conditions
from tests.cli_lines import said
from tests.smoke_runs import shop, smoke_here

INSTRUCTIONS = ["--measure", "instructions"]


@pytest.mark.parametrize(
    ("args", "refusal"),
    [
        ([*INSTRUCTIONS], "smoke needs --baseline FILE (with --save to measure it)"),
        ([*INSTRUCTIONS, "--against", "HEAD"], "--against goes with the req/s measure"),
        ([*INSTRUCTIONS, "--save", "--until-decided"], "--until-decided goes with the req/s"),
        ([*INSTRUCTIONS, "--save", "--max-time", "9"], "--max-time goes with the req/s"),
        ([*INSTRUCTIONS, "--save", "--fail-inconclusive"], "--fail-inconclusive goes with"),
        ([*INSTRUCTIONS, "--save", "--profile"], "--profile goes with the req/s measure"),
        ([*INSTRUCTIONS, "--save", "--profile-diff", "d.svg"], "--profile-diff goes with"),
        ([*INSTRUCTIONS, "--save", "-d", "3"], "-d/--duration goes with the req/s measure"),
        ([*INSTRUCTIONS, "--save", "--warmup", "1"], "--warmup goes with the req/s measure"),
        ([*INSTRUCTIONS, "--save", "-c", "5"], "-c/--concurrency goes with the req/s measure"),
        ([*INSTRUCTIONS, "--save", "--server", "uwsgi"], "--server uwsgi would not be measured"),
        ([*INSTRUCTIONS, "--save", "--set", "gunicorn.workers=2"], "gunicorn.workers=2 would"),
        (["--save", "--requests", "5"], "--requests counts instructions"),
        (["--save", "--served"], "--served counts instructions"),
    ],
)
def test_an_option_the_measure_would_not_use_is_refused(
    tmp_path: Path, args: list[str], refusal: str
) -> None:
    baseline = [] if args == INSTRUCTIONS else ["--baseline", str(tmp_path / "b.json")]
    done = smoke_here(*shop(*args, *baseline))
    assert done.returncode == 2
    assert refusal in done.stderr
    assert len(said(done.stderr).splitlines()) == 1
    assert list(tmp_path.iterdir()) == []


def test_a_baseline_of_instructions_is_not_one_of_req_s(tmp_path: Path) -> None:
    path = tmp_path / "b.json"
    path.write_text(
        json.dumps(baseline_document("shop.wsgi:application", current_conditions(), {"/": [1.0]}))
    )
    done = smoke_here(*shop("--baseline", str(path)))
    assert done.returncode == 2
    assert said(done.stderr) == (
        f"layerbench: error: {path} is a baseline of instructions: compare with it with "
        "--measure instructions\n"
    )
