"""What a default ladder, matrix and smoke run print fits a 120-column terminal, every line:
the tables rendered from stored results (the --full ladder of 12 rungs and four service roles,
a ladder of several applications, the 000 and 002 matrices with their long labels, and the runs
kept under docs/experiments/runs), the progress header each prints first, and a short smoke
run's whole output. ``layerbench report RUN -o -`` reprints a stored run's tables, and the
Markdown and HTML reports carry what the terminal shows: vs above, vs top, the run's load and
label, what each application costs over bare."""

import dataclasses
import io
import json
import re
import subprocess
from pathlib import Path

import pytest

from layerbench.lab.cpu_layout import CpuLayout
from layerbench.ladder.ladder_progress import LadderProgress
from layerbench.ladder.ladder_result import LadderResult, RungResult
from layerbench.ladder.options import LadderOptions
from layerbench.matrix.matrix_options import Column, MatrixOptions
from layerbench.matrix.matrix_progress import MatrixProgress
from layerbench.report.exports import to_markdown
from layerbench.report.html_report import html_report
from layerbench.report.stored_result import read_result
from layerbench.report.terminal_tables import terminal_tables
from tests.report_documents import full_ladder, seed_000_matrix, seed_002_matrix
from tests.smoke_runs import BRIEF, LAYERBENCH, shop, smoke

WIDTH = 120
RUNS = Path(__file__).resolve().parent.parent.parent / "docs" / "experiments" / "runs"
LAYOUT = CpuLayout(frozenset({0}), frozenset({1}))


def too_wide(text: str) -> list[str]:
    return [line for line in text.splitlines() if len(line) > WIDTH]


def several_apps() -> LadderResult:
    """The --full ladder as if run with --apps bare,django,flask: a row per application."""
    ladder = full_ladder()
    rungs: list[RungResult] = []
    for app in ("bare", "django", "flask"):
        for rung in ladder.rungs[:4]:
            rungs.append(dataclasses.replace(rung, app=app))
    ladder.rungs = rungs
    ladder.options = {
        **ladder.options,
        "apps": ["bare", "django", "flask"],
        "label": "apps",
        "duration_s": 3.0,
        "warmup_s": 1.0,
    }
    return ladder


def stored_runs() -> list[Path]:
    return sorted(RUNS.glob("*.json"))


@pytest.mark.parametrize(
    "result",
    [full_ladder, several_apps, seed_000_matrix, seed_002_matrix],
    ids=["full-ladder", "several-apps", "matrix-000", "matrix-002"],
)
def test_the_tables_fit_120_columns(result: object) -> None:
    text = terminal_tables(result(), colour=False)  # type: ignore[operator]
    assert too_wide(text) == []


@pytest.mark.parametrize("path", stored_runs(), ids=lambda path: path.stem)
def test_a_stored_runs_tables_fit_120_columns(path: Path) -> None:
    text = terminal_tables(read_result(json.loads(path.read_text())), colour=False)
    assert too_wide(text) == []


def test_the_progress_headers_fit_120_columns() -> None:
    ladder = io.StringIO()
    LadderProgress(LadderOptions(full=True), ladder).begin(LAYOUT)
    assert ladder.getvalue().startswith("layerbench ladder --full: ")
    assert too_wide(ladder.getvalue()) == [] and len(ladder.getvalue().splitlines()) == 2
    columns = tuple(
        Column.parse(text, {}, "bare")
        for text in ("mod_wsgi-embedded", "mod_wsgi-daemon:processes=2:threads=100")
    )
    matrix = io.StringIO()
    MatrixProgress(MatrixOptions(columns=columns, concurrency=(10, 100, 200, 500)), matrix).begin(
        LAYOUT
    )
    assert too_wide(matrix.getvalue()) == []


def test_a_smoke_runs_output_fits_120_columns(tmp_path: Path) -> None:
    brief = [*BRIEF, "--repeats", "5"]  # enough for a verdict
    saved = smoke(*shop("--baseline", "perf.json", "--save", *brief), cwd=tmp_path)
    assert saved.returncode == 0, saved.stderr
    done = smoke(*shop("--baseline", "perf.json", *brief), cwd=tmp_path)
    assert done.returncode in (0, 1), done.stderr
    for output in (saved.stdout, saved.stderr, done.stdout, done.stderr):
        assert too_wide(output) == []


def test_report_reprints_a_stored_runs_terminal_tables(tmp_path: Path) -> None:
    document = full_ladder().to_dict()
    document["options"]["label"] = "nightly"
    path = tmp_path / "ladder.json"
    path.write_text(json.dumps(document))
    done = subprocess.run(
        [*LAYERBENCH, "report", str(path), "-o", "-"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    expected = terminal_tables(read_result(document), colour=False)
    assert done.stdout == expected + "\n"
    assert done.stdout.startswith("layerbench ladder: label nightly; server gunicorn; ")
    assert "memory per worker" in done.stdout and "vs above" in done.stdout


def test_markdown_and_html_carry_what_the_terminal_shows() -> None:
    result = several_apps()
    markdown = to_markdown(result)
    assert "| vs above | vs top |" in markdown
    assert "what each application costs" in markdown and "| cost vs bare |" in markdown
    run = next(line for line in markdown.splitlines() if line.startswith("Run: "))
    assert "label apps" in run and "concurrency " in run and "repeats 3 (interleaved)" in run
    assert "s measured per trial" in run
    page = html_report(result)
    assert "<th>vs above</th><th>vs top</th>" in page
    assert "What each application costs" in page and "<th>cost vs bare</th>" in page
    facts = re.search(r'<table id="run">(.*?)</table>', page)
    assert facts is not None
    for name in ("label", "concurrency", "duration", "repeats"):
        assert f"<td>{name}</td>" in facts.group(1), name
