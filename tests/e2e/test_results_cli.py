"""``layerbench results`` (and what ladder, report and ids do with the database and stdout) end
to end: exit statuses, one-line warnings and errors, never a traceback. In a process of their
own where the process is the point (a full disk, a closed pipe, Ctrl-C, a real ladder), else
through the CLI's entry point in this one."""

import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from layerbench.cli.main import run
from layerbench.store.results_db import ResultsDatabase, default_path
from tests.stored_runs import ladder_v3, unwritable_file

LAYERBENCH = [sys.executable, "-m", "layerbench.cli"]
QUICK_LADDER = ["ladder", "--rungs", "string", "-d", "0.3", "--warmup", "0.1", "--repeats", "1"]


def layerbench(*args: str, cwd: Path, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*LAYERBENCH, *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        timeout=120,
        check=False,
        env={**os.environ, **env},
    )


def stored(document: dict[str, Any], label: str | None = None) -> None:
    with ResultsDatabase(default_path()) as database:
        database.add_run(document, label)


def results(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    """``layerbench results ARGS``: its exit status, stdout and stderr."""
    code = run(["results", *args])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_a_ladder_whose_database_cannot_be_written_warns_and_keeps_its_json(
    tmp_path: Path, load_binary: Path, results_database: Path
) -> None:
    stored(ladder_v3({"string": [1.0]}))
    with unwritable_file(results_database):
        completed = layerbench(*QUICK_LADDER, "--json", "out.json", cwd=tmp_path)
    assert completed.returncode == 0, completed.stderr
    assert "Traceback" not in completed.stderr
    (warning,) = [line for line in completed.stderr.splitlines() if "warning" in line]
    assert warning == (
        f"layerbench: warning: the run was not stored: the results database {results_database} "
        "cannot be written: attempt to write a readonly database"
    )
    document = json.loads((tmp_path / "out.json").read_text())
    assert document["rungs"][0]["requests_per_s"] > 0


def test_ctrl_c_stores_the_measured_rungs_as_a_partial_labelled_run(
    tmp_path: Path, load_binary: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    command = [*LAYERBENCH, *QUICK_LADDER, "-d", "1.5", "--rungs", "string,cache", "--label", "cut"]
    reaper = subprocess.run(
        [sys.executable, "-m", "tests.reaper", "cache ", "60", "--", *command],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=120,
        check=False,
        env={**os.environ, "PYTHONPATH": str(Path(__file__).parent.parent.parent)},
    )
    report = json.loads(reaper.stdout)
    assert (report["seen"], report["exit"], report["left"]) == (True, 130, []), report
    # The ^C a terminal echoes ends the progress line; what follows starts a line of its own.
    lines = report["stderr"].splitlines()
    assert "results written to ladder.json" in lines, lines
    assert any(line.startswith("stored as run 1, partial in ") for line in lines), lines
    _, listed, _ = results(capsys, "list")
    assert listed.splitlines()[1].split()[-4:] == ["x1", "cut", "1", "partial"]
    _, shown, _ = results(capsys, "show", "1")
    assert shown.splitlines()[0].endswith(", label 'cut', partial (interrupted)")
    assert [line.split()[:3] for line in shown.splitlines()[2:]] == [["string", "ok", "1"]]


def test_rows_edited_by_hand_are_warnings_in_show_and_an_error_in_report(
    tmp_path: Path, results_database: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    stored(ladder_v3({"string": [8000.0, 8100.0, 7900.0]}))
    with sqlite3.connect(results_database) as connection:
        connection.execute("UPDATE runs SET document = '{\"version\": ' WHERE id = 1")
        connection.execute("UPDATE trials SET requests_per_s = 'fast' WHERE repeat = 2")
    connection.close()
    code, shown, warnings = results(capsys, "show", "1")
    assert code == 0
    assert warnings.splitlines() == [
        "layerbench: warning: run 1, rung string, trial 2: req/s 'fast' is not a number "
        "(edited by hand?); left out",
        "layerbench: warning: run 1's stored document is not JSON (edited by hand?): "
        "Expecting value: line 1 column 13 (char 12)",
    ]
    assert shown.splitlines()[2].split()[:4] == ["string", "ok", "2", "7,950"]
    code, _, warnings = results(capsys, "list")
    assert code == 0 and len(warnings.splitlines()) == 2, warnings
    assert run(["report", "1", "-o", str(tmp_path / "out.html")]) == 1
    assert capsys.readouterr().err == (
        "layerbench: error: run 1's stored document is not JSON (edited by hand?): "
        "Expecting value: line 1 column 13 (char 12)\n"
    )


FULL_DISK = "layerbench: error: cannot write to stdout: No space left on device\n"


def test_a_full_disk_is_one_line_and_a_reader_that_stops_is_quiet(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    with Path("/dev/full").open("w") as full:
        completed = subprocess.run(
            [*LAYERBENCH, "ids", "gen", "-n", "100000"],
            stdout=full,
            stderr=subprocess.PIPE,
            text=True,
            check=False,
        )
    assert (completed.returncode, completed.stderr) == (1, FULL_DISK)
    stored(ladder_v3({"string": [1.0]}))
    with Path("/dev/full").open("w") as full:
        monkeypatch.setattr(sys, "stdout", full)
        assert run(["results", "list"]) == 1
    assert capsys.readouterr().err == FULL_DISK
    # `layerbench ids gen -n 1000000 | head -1`: quiet, and the status a shell reports for
    # `seq 1000000 | head -1`'s seq, 128 + SIGPIPE.
    with subprocess.Popen(
        [*LAYERBENCH, "ids", "gen", "-n", "1000000"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    ) as generator:
        assert generator.stdout is not None and generator.stderr is not None
        assert len(generator.stdout.readline()) == 14
        generator.stdout.close()
        assert generator.wait(timeout=60) == 141
        assert generator.stderr.read() == ""


def test_runs_are_removed_and_an_unknown_one_is_a_usage_error(
    capsys: pytest.CaptureFixture[str],
) -> None:
    for _ in range(3):
        stored(ladder_v3({"string": [1.0]}))
    code, _, error = results(capsys, "rm", "1", "7")
    assert code == 2
    assert error.startswith("layerbench: error: no run 7 in ")
    assert len(error.splitlines()) == 1
    assert results(capsys, "rm", "1", "3") == (0, "removed run 1\nremoved run 3\n", "")
    _, listed, _ = results(capsys, "list")
    assert [line.split()[0] for line in listed.splitlines()[1:]] == ["2"]


def test_list_shows_the_server_its_settings_and_the_label(
    capsys: pytest.CaptureFixture[str],
) -> None:
    tuned = ladder_v3({"orm": [1.0]}, server="uwsgi", settings={"uwsgi": {"processes": "4"}})
    stored(tuned, "four processes")
    _, listed, _ = results(capsys, "list")
    header, row = listed.splitlines()
    assert header.split() == [
        "run", "started", "(UTC)", "kind", "server", "settings", "what", "label", "rungs"
    ]  # fmt: skip
    assert row.split() == [
        "1", "2026-11-23", "10:00", "ladder", "uwsgi", "uwsgi.processes=4", "embedded", "c=10",
        "x5", "four", "processes", "1",
    ]  # fmt: skip


def with_probe(document: dict[str, Any], speeds: list[float]) -> dict[str, Any]:
    """Each rung's trials given the CPU speed probe's ``speeds``, in order."""
    for rung in document["rungs"]:
        for trial, speed in zip(rung["repeats"], speeds, strict=False):
            trial["cpu_speed"] = speed
    return document


def test_two_runs_of_one_configuration_are_never_slower(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # Issue 35: one configuration a minute apart, the second run's machine 30 % slower; each
    # run's trials agree, and the CPU probe saw the machine slow down.
    stored(with_probe(ladder_v3({"string": [1000.0, 1010.0, 990.0]}), [100.0, 101.0, 99.0]))
    stored(with_probe(ladder_v3({"string": [680.0, 690.0, 670.0]}), [70.0, 71.0, 69.0]))
    # A loaded machine, no probe: the trials spread within each run as between them.
    stored(ladder_v3({"string": [1000.0, 1400.0, 800.0, 1200.0, 900.0]}))
    stored(ladder_v3({"string": [700.0, 1000.0, 640.0, 900.0, 650.0]}))
    for first, second in (("1", "2"), ("3", "4")):
        code, compared, _ = results(capsys, "compare", first, second, "--fail-if-slower", "5")
        assert code == 0
        string = compared.splitlines()[2]
        assert "slower" not in string
        assert "inconclusive" in string
        assert "measure both side by side in one run" in compared
        document = json.loads(results(capsys, "compare", first, second, "--json")[1])
        assert document["rungs"][0]["outcome"] == "inconclusive"
    assert (
        "the CPU speed probe between the runs and within them"
        in results(capsys, "compare", "1", "2")[1]
    )


COLUMN = "mod_wsgi-daemon:processes=2"


def matrix_v1(rates: list[float]) -> dict[str, Any]:
    """A matrix of one column at c=10, one cell per rate (a trial each)."""
    return {
        "version": 1,
        "options": {"concurrency": [10] * len(rates), "rung": "string"},
        "columns": [{"label": COLUMN}],
        "cells": [
            {
                "column": COLUMN,
                "row": row,
                "concurrency": 10,
                "status": "ok",
                "requests_per_s": rate,
            }
            for row, rate in enumerate(rates)
        ],
    }


def test_two_matrices_are_told_to_be_measured_as_columns_not_ladder_rungs(
    capsys: pytest.CaptureFixture[str],
) -> None:
    stored(matrix_v1([1000.0, 1010.0]))
    stored(matrix_v1([990.0, 1005.0]))
    code, compared, _ = results(capsys, "compare", "1", "2")
    assert code == 0
    advice = compared.splitlines()[-1]
    assert "measure both side by side in one run" in advice
    assert "columns of one layerbench matrix run" in advice
    assert "--rungs" not in advice  # a cell (COLUMN c=N) is no ladder's rung


def test_a_run_compared_with_itself_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    stored(ladder_v3({"string": [1000.0, 1010.0, 990.0]}))
    code, out, error = results(capsys, "compare", "1", "1")
    assert (code, out) == (2, "")
    assert error == "layerbench: error: run 1 compared with itself: give two runs\n"


def test_compare_names_different_conditions_and_fails_a_slowdown_on_request(
    capsys: pytest.CaptureFixture[str],
) -> None:
    stored(ladder_v3({"string": [1000.0, 1010.0, 990.0], "orm": [500.0]}))
    stored(ladder_v3({"string": [800.0, 810.0, 790.0], "orm": [692.5]}, full=True, server="uwsgi"))
    code, compared, warning = results(capsys, "compare", "1", "2")
    assert code == 0
    assert warning == (
        "layerbench: warning: runs 1 and 2 were measured under different conditions, services: "
        "embedded (SQLite, the in-process cache) vs --full (memcached, Redis, MariaDB, "
        "PostgreSQL); server: gunicorn vs uwsgi (A vs B)\n"
    )
    string, orm = compared.splitlines()[2:4]
    assert string.split()[4:7] == ["slower", "by", "20"]
    assert orm.split()[3:8] == ["1.385", "inconclusive:", "1", "trial,", "fewer"]
    _, as_json, _ = results(capsys, "compare", "1", "2", "--json")
    document = json.loads(as_json)
    assert document["different_conditions"] == [
        "services: embedded (SQLite, the in-process cache) vs --full (memcached, Redis, "
        "MariaDB, PostgreSQL)",
        "server: gunicorn vs uwsgi",
    ]
    assert [(r["rung"], r["outcome"]) for r in document["rungs"]] == [
        ("string", "slower"),
        ("orm", "inconclusive"),
    ]
    # 20 % slower: beyond 10 %, within 25 %.
    code, _, error = results(capsys, "compare", "1", "2", "--fail-if-slower", "10")
    assert code == 1
    assert error.splitlines()[-1] == (
        "layerbench: run 2 is slower than run 1 by more than 10 % (significantly) on: string"
    )
    assert results(capsys, "compare", "1", "2", "--fail-if-slower", "25")[0] == 0
    assert results(capsys, "compare", "1", "2", "--fail-if-slower", "150")[0] == 2


def test_help_names_the_variable_and_its_fallback_and_the_database_in_use(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv("XDG_DATA_HOME", raising=False)
    monkeypatch.setenv("LAYERBENCH_RESULTS_DB", "/srv/lab.sqlite3")
    monkeypatch.setenv("COLUMNS", "200")
    with pytest.raises(SystemExit):
        run(["results", "--help"])
    assert (
        "$LAYERBENCH_RESULTS_DB, else ~/.local/share/layerbench/results.sqlite3 "
        "(in use: /srv/lab.sqlite3)." in capsys.readouterr().out
    )


def test_a_report_of_a_document_with_a_wrong_field_is_one_line(
    tmp_path: Path, results_database: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    document = ladder_v3({"string": [8000.0]})
    stored(document)
    # Imported whole, then edited by hand in the database (an import refuses it).
    document["rungs"][0]["roles"] = "edited"
    with sqlite3.connect(results_database) as connection:
        connection.execute("UPDATE runs SET document = ? WHERE id = 1", (json.dumps(document),))
    connection.close()
    output = str(tmp_path / "out.html")
    assert run(["report", "1", "-o", output]) == 1
    assert capsys.readouterr().err == (
        "layerbench: error: run 1's stored document: a layerbench document with a wrong field: "
        'string: roles is an object, not "edited"\n'
    )
    path = tmp_path / "edited.json"
    path.write_text(json.dumps(document))
    assert run(["report", str(path), "-o", output]) == 2
    assert capsys.readouterr().err.startswith(f"layerbench: error: {path}: a layerbench document")
    assert not Path(output).exists()
