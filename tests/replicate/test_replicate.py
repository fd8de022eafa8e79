"""The published experiments by name (``layerbench replicate``, replicate/published.py): each read
from its TOML file and validated, listed with its post's title, year and headline claim within
120 columns, run by the ladder or matrix command it names with this run's options after its
own; a mistyped name answered with the nearest; the data files shipped as package data."""

import re
import subprocess
import sys
import tomllib
import unicodedata
from pathlib import Path
from typing import Any

import pytest

from layerbench.errors import ConfigError
from layerbench.replicate.published import (
    LADDER,
    MATRIX,
    of_post,
    parse,
    published,
    published_named,
)
from tests.cli_lines import said
from tests.conftest import missing

COMMAND = (sys.executable, "-m", "layerbench.cli")
ROOT = Path(__file__).resolve().parent.parent.parent
DATA = ROOT / "layerbench" / "replicate" / "experiments"


def layerbench(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*COMMAND, *args], capture_output=True, text=True, timeout=60, check=False, cwd=cwd
    )


def columns(line: str) -> int:
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in line)


def test_at_least_eight_experiments_each_with_its_post_and_claim() -> None:
    experiments = published()
    assert len(experiments) >= 8
    assert {e.kind for e in experiments} == {LADDER, MATRIX}
    for experiment in experiments:
        assert experiment.title and experiment.headline and experiment.setup, experiment.name
        assert 2000 < experiment.year < 2020, experiment.name
        assert experiment.experiment.name == experiment.name
        assert experiment.command.split()[0] == experiment.kind
        assert "--seed" not in experiment.command
    names = [e.name for e in experiments]
    assert "mod_wsgi-mysql-ladder" in names and "zope-paste" in names


def test_the_list_names_each_with_its_title_year_and_claim_within_120_columns() -> None:
    done = layerbench("replicate", "--list")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert len(lines) == 3 * len(published())
    assert max(columns(line) for line in lines) <= 120
    at = lines.index("zope-paste (a matrix)")
    assert lines[at + 1].endswith(", 2009") and "paste.httpserver" in lines[at + 1]
    assert lines[at + 2].startswith("    Zope 3 under mod_wsgi"), lines[at + 2]


def test_a_mistyped_name_is_answered_with_the_nearest_in_one_line() -> None:
    done = layerbench("replicate", "zope-pasta")
    assert done.returncode == 2
    assert said(done.stderr) == (
        "layerbench: error: no published experiment 'zope-pasta'; did you mean zope-paste?\n"
    )
    with pytest.raises(ConfigError, match="did you mean mod_wsgi-daemon-modes"):
        published_named("mod_wsgi-daemon-mode")


def test_the_command_it_runs_takes_this_runs_options_after_its_own() -> None:
    done = layerbench("replicate", "zope-paste", "--command", "-d", "1", "--repeats", "2")
    assert done.returncode == 0, done.stderr
    words = done.stdout.split()
    assert words[:2] == ["layerbench", "matrix"]
    # The experiment's own warm-up stays; the duration and repeats given here are added.
    assert words[words.index("--warmup") + 1] == "5"
    assert words[-10:] == [
        "--duration", "1.0", "--repeats", "2", "--json", "zope-paste.json",
        "--label", "zope-paste", "--published", "zope-paste",
    ]  # fmt: skip


def test_replicate_runs_the_ladder_and_prints_the_post_beside_it(tmp_path: Path) -> None:
    """The cheapest: Rails under Passenger on SQLite, a short ladder through ladder's own
    parser and handler, the post's figures after its tables."""
    quick = ["-d", "0.3", "--warmup", "0.2", "--repeats", "1"]
    done = subprocess.run(
        [*COMMAND, "replicate", "rails-passenger", *quick],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
        cwd=tmp_path,
    )
    if "not installed" in done.stdout + done.stderr:
        missing(done.stdout + done.stderr)
    assert done.returncode == 0, done.stderr
    assert "published vs here: rails-passenger (" in done.stdout, done.stdout
    assert (tmp_path / "rails-passenger.json").exists()


def test_the_hidden_seed_alias_names_the_experiments_of_its_post() -> None:
    assert [e.name for e in of_post("003", MATRIX)] == ["zope-paste"]
    assert of_post("003", LADDER) == []
    done = layerbench("ladder", "--seed", "003", "--rungs", "string")
    assert done.returncode == 2
    assert "--seed 003 is replaced by --published NAME, and post 003 has no ladder" in done.stderr


def document(name: str) -> dict[str, Any]:
    with (DATA / f"{name}.toml").open("rb") as file:
        return tomllib.load(file)


def test_a_data_file_is_validated_when_read() -> None:
    good = document("zope-paste")
    parse("zope-paste.toml", good)
    unknown = {**good, "colour": "red"}
    with pytest.raises(ValueError, match=re.escape("zope-paste.toml: unknown keys ['colour']")):
        parse("zope-paste.toml", unknown)
    lacking = {key: value for key, value in good.items() if key != "headline"}
    with pytest.raises(ValueError, match=re.escape("zope-paste.toml: headline is missing")):
        parse("zope-paste.toml", lacking)
    claims = [{**good["claims"][0], "figure": "nginx c=9"}]
    with pytest.raises(ValueError, match="zope-paste names no figure"):
        parse("zope-paste.toml", {**good, "claims": claims})
    claims = [{**good["claims"][0], "direction": "sideways"}]
    with pytest.raises(ValueError, match=r"claims\[0\]\.direction is one of"):
        parse("zope-paste.toml", {**good, "claims": claims})
    figures = [{**good["figures"][0], "concurrency": "one"}, *good["figures"][1:]]
    with pytest.raises(
        ValueError, match=r"figures\[0\]\.concurrency is a whole number, not \"one\""
    ):
        parse("zope-paste.toml", {**good, "figures": figures})


def test_the_data_files_are_package_data() -> None:
    with (ROOT / "pyproject.toml").open("rb") as file:
        package_data = tomllib.load(file)["tool"]["setuptools"]["package-data"]["*"]
    assert "*.toml" in package_data
    assert sorted(path.stem for path in DATA.glob("*.toml")) == sorted(e.name for e in published())


def test_measured_a_cost_claim_is_counted_twice_and_a_first_run_from_a_start() -> None:
    """With --measure, an experiment whose claims are about what a request costs is counted
    twice per configuration; one about the first run after a restart counts its first requests."""
    lineup = layerbench("replicate", "mod_python-lineup", "--measure", "instructions", "--command")
    assert lineup.returncode == 0, lineup.stderr
    words = lineup.stdout.split()
    assert words[words.index("--measure-counts") + 1] == "2"
    assert "--first-requests" not in words
    preload = layerbench(
        "replicate", "django-preload", "--measure", "instructions", "--counts", "3", "--command"
    )
    words = preload.stdout.split()
    assert words[words.index("--measure-counts") + 1] == "3"
    assert words[words.index("--first-requests") + 1] == "500"
    assert words[words.index("--second-run") + 1] == "100"  # its second run, at the post's c
    pylons = layerbench("replicate", "django-pylons", "--measure", "instructions", "--command")
    words = pylons.stdout.split()
    assert words[words.index("--settled") + 1] == "1"  # Apache's children keep changing
    unmeasured = layerbench("replicate", "django-preload", "--command")
    assert "--measure-counts" not in unmeasured.stdout
    rails = layerbench("replicate", "rails-passenger", "--measure", "instructions", "--command")
    assert (
        "--measure-counts" not in rails.stdout
    )  # Passenger cannot be counted: not a counted claim


def test_the_counts_options_go_with_what_they_need_refused_in_one_line() -> None:
    """--second-run without --first-requests, --settled without --measure: exit 2, one line,
    before anything starts."""
    base = ("matrix", "--servers", "gunicorn", "--rung", "string", "-c", "1")
    second = layerbench(*base, "--measure", "instructions", "--second-run", "20")
    assert second.returncode == 2 and "--second-run goes with --first-requests" in second.stderr
    settled = layerbench(*base, "--settled", "1")
    assert settled.returncode == 2 and "--settled goes with --measure" in settled.stderr
    assert len(settled.stderr.strip().splitlines()) == 1
