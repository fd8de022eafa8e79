"""The results database: runs stored and read back, ladder documents of every version loaded,
a newer schema refused, an older one migrated, a database that cannot be written and rows
edited by hand, runs removed, and two runs compared with a significance test and their
differing conditions."""

import json
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest

from layerbench.errors import ConfigError, ResultsDatabaseError
from layerbench.report.run_conditions import differences, run_conditions
from layerbench.report.stored_result import read_result
from layerbench.stats.comparison import compare_rates, compare_rungs
from layerbench.store.results_db import MIGRATIONS, SCHEMA_VERSION, ResultsDatabase
from tests.stored_runs import LADDER_V1, ladder_v3, unwritable_file


def test_runs_are_stored_and_read_back(tmp_path: Path) -> None:
    database = ResultsDatabase(tmp_path / "results.sqlite3")
    first = database.add_run(ladder_v3({"string": [8000.0, 8100.0, 7900.0]}))
    second = database.add_run(LADDER_V1)
    assert [run.id for run in database.runs()] == [first, second]
    run = database.run(first)
    assert (run.server, run.settings, run.description) == ("gunicorn", "", "embedded c=10 x5")
    assert run.rungs[0].rung == "string" and run.rungs[0].rates == (8000.0, 8100.0, 7900.0)
    # A version 1 document: one measurement per rung; a skipped rung has none.
    old = database.run(second)
    assert [(r.rung, r.status, r.rates) for r in old.rungs] == [
        ("static", "ok", (9700.0,)),
        ("nginx-less", "skipped", ()),
    ]
    assert database.document(second) == LADDER_V1
    database.close()
    # Reopened: the same runs.
    assert len(ResultsDatabase(tmp_path / "results.sqlite3").runs()) == 2


def test_a_mix_is_stored_as_one(tmp_path: Path) -> None:
    document = ladder_v3(
        {"cached-page": [4000.0], "page": [2000.0], "mix-90": [3700.0]},
        mix={"hit_ratio": 0.9, "hit": "cached-page", "miss": "page"},
    )
    database = ResultsDatabase(tmp_path / "results.sqlite3")
    assert database.run(database.add_run(document)).kind == "mix"


def test_a_matrix_is_stored_cell_by_cell(tmp_path: Path) -> None:
    """Seed 004's matrix gives the level 10 twice: its cells are told apart by their place."""
    cells = [
        ("gunicorn", 0, 10, "ok", 2000.0),
        ("gunicorn", 1, 10, "ok", 2300.0),
        ("gunicorn", 2, 100, "error", None),
        ("uwsgi", 0, 10, "ok", 1900.0),
    ]
    document = {
        "version": 1,
        "started_at": "2026-11-23T11:00:00+00:00",
        "options": {"concurrency": [10, 10, 100], "rung": "template"},
        "columns": [{"label": "gunicorn"}, {"label": "uwsgi"}],
        "cells": [
            {"column": c, "row": r, "concurrency": n, "status": s, "requests_per_s": rate}
            for c, r, n, s, rate in cells
        ],
    }
    database = ResultsDatabase(tmp_path / "results.sqlite3")
    run = database.run(database.add_run(document))
    assert (run.kind, run.server, run.description) == (
        "matrix",
        "gunicorn, uwsgi",
        "template c=10,10,100",
    )
    assert [(r.rung, r.status, r.rates) for r in run.rungs] == [
        ("gunicorn c=10 #1", "ok", (2000.0,)),
        ("gunicorn c=10 #2", "ok", (2300.0,)),
        ("gunicorn c=100", "error", ()),
        ("uwsgi c=10 #1", "ok", (1900.0,)),
    ]


def test_unknown_runs_and_documents_are_refused(tmp_path: Path) -> None:
    database = ResultsDatabase(tmp_path / "results.sqlite3")
    with pytest.raises(ConfigError, match="no run 7"):
        database.run(7)
    with pytest.raises(ConfigError, match="ladder document version 99"):
        database.add_run({"version": 99, "rungs": []})
    with pytest.raises(ConfigError, match="not a layerbench ladder or matrix document"):
        database.add_run({"columns": []})
    with pytest.raises(ConfigError, match="matrix document version 7"):
        database.add_run({"version": 7, "cells": []})


def test_a_database_from_a_newer_layerbench_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "results.sqlite3"
    with sqlite3.connect(path) as connection:
        connection.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    connection.close()
    with pytest.raises(ResultsDatabaseError, match="newer than this layerbench"):
        ResultsDatabase(path)


def test_a_clear_slowdown_is_significant_and_noise_is_not() -> None:
    a = [1000.0, 1010.0, 990.0, 1005.0, 995.0]
    slower = [800.0, 810.0, 790.0, 805.0, 795.0]
    same = [1003.0, 992.0, 1008.0, 997.0, 1001.0]
    slowdown = compare_rates("orm", a, slower)
    assert slowdown.ratio == pytest.approx(0.8)
    assert slowdown.ci_high is not None and slowdown.ci_high < 1.0
    assert slowdown.significant
    noise = compare_rates("orm", a, same)
    assert noise.ci_low is not None and noise.ci_low < 1.0 < (noise.ci_high or 0)
    assert not noise.significant
    # Measured once: no interval, never significant.
    assert not compare_rates("orm", [1000.0], [500.0]).significant


def test_runs_compare_on_the_rungs_they_share(tmp_path: Path) -> None:
    database = ResultsDatabase(tmp_path / "results.sqlite3")
    a = database.add_run(ladder_v3({"string": [8000.0, 8050.0, 7950.0], "orm": [2000.0] * 3}))
    b = database.add_run(ladder_v3({"orm": [1500.0, 1510.0, 1490.0], "page": [900.0] * 3}))
    (orm,) = compare_rungs(database.run(a).rungs, database.run(b).rungs)
    assert orm.rung == "orm" and orm.ratio == pytest.approx(0.75) and orm.significant


def test_a_version_1_database_is_migrated_with_its_interrupted_runs_partial(
    tmp_path: Path,
) -> None:
    path = tmp_path / "results.sqlite3"
    with sqlite3.connect(path) as connection:
        connection.executescript(MIGRATIONS[1])
        connection.execute("PRAGMA user_version = 1")
        connection.execute(
            "INSERT INTO runs (kind, started_at, finished_at, interrupted, description, document) "
            "VALUES ('ladder', NULL, NULL, 1, 'embedded gunicorn', ?)",
            (json.dumps(LADDER_V1),),
        )
    connection.close()
    with ResultsDatabase(path) as database:
        (run,) = database.runs()
        assert (run.partial, run.label) == (True, None)
        labelled = database.run(database.add_run(LADDER_V1, label="before the fix"))
        assert (labelled.partial, labelled.label) == (False, "before the fix")
    with sqlite3.connect(path) as connection:
        assert connection.execute("PRAGMA user_version").fetchone() == (SCHEMA_VERSION,) == (3,)
    connection.close()


def test_an_interrupted_run_is_stored_partial(tmp_path: Path) -> None:
    with ResultsDatabase(tmp_path / "results.sqlite3") as database:
        document = {**ladder_v3({"string": [8000.0]}), "interrupted": True}
        assert database.run(database.add_run(document)).partial


@pytest.fixture
def unwritable(tmp_path: Path) -> Iterator[Path]:
    path = tmp_path / "results.sqlite3"
    with ResultsDatabase(path) as database:
        database.add_run(LADDER_V1)
    with unwritable_file(path):
        yield path


def test_a_database_that_cannot_be_written_is_an_error_naming_it(unwritable: Path) -> None:
    with ResultsDatabase(unwritable) as database:
        assert len(database.runs()) == 1
        with pytest.raises(ResultsDatabaseError, match=f"{unwritable} cannot be written: .*read"):
            database.add_run(LADDER_V1)
        with pytest.raises(ResultsDatabaseError, match="cannot be written"):
            database.remove([1])
        assert len(database.runs()) == 1


def test_rows_edited_by_hand_are_problems_and_the_rest_is_read(tmp_path: Path) -> None:
    path = tmp_path / "results.sqlite3"
    with ResultsDatabase(path) as database:
        run_id = database.add_run(ladder_v3({"string": [8000.0, 8100.0, 7900.0]}))
    with sqlite3.connect(path) as connection:
        connection.execute("UPDATE runs SET document = '{\"version\": 3, ' WHERE id = ?", (run_id,))
        connection.execute("UPDATE trials SET requests_per_s = 'fast' WHERE repeat = 2")
    connection.close()
    with ResultsDatabase(path) as database:
        run = database.run(run_id)
        assert run.rungs[0].rates == (8000.0, 7900.0)
        first, second = run.problems
        assert first == (
            "run 1, rung string, trial 2: req/s 'fast' is not a number (edited by hand?); left out"
        )
        assert second.startswith("run 1's stored document is not JSON (edited by hand?): ")
        with pytest.raises(ResultsDatabaseError, match="run 1's stored document is not JSON"):
            database.document(run_id)


def test_a_document_with_a_wrong_field_is_refused_naming_it(tmp_path: Path) -> None:
    broken = ladder_v3({"string": [8000.0]})
    broken["rungs"][0]["repeats"][0]["requests_per_s"] = "fast"
    with (
        ResultsDatabase(tmp_path / "results.sqlite3") as database,
        pytest.raises(ConfigError, match=r"a wrong field: string: repeats\[0\]\.requests_per_s"),
    ):
        database.add_run(broken)


def test_runs_are_removed_all_or_none(tmp_path: Path) -> None:
    with ResultsDatabase(tmp_path / "results.sqlite3") as database:
        first, second, third = (database.add_run(LADDER_V1) for _ in range(3))
        with pytest.raises(ConfigError, match="no run 9 in"):
            database.remove([first, 9])
        assert [run.id for run in database.runs()] == [first, second, third]
        database.remove([first, third])
        assert [run.id for run in database.runs()] == [second]
        # Their trials went with them.
        rows = database._connection.execute("SELECT DISTINCT run_id FROM trials").fetchall()
        assert rows == [(second,)]


def test_a_ratio_measured_once_is_not_significant_and_says_why() -> None:
    """Issue 19: 1.385 measured once was labelled "same"."""
    once = compare_rates("orm", [1000.0], [1385.0])
    assert once.ratio == pytest.approx(1.385)
    assert once.verdict.startswith("inconclusive: 1 trial, fewer than 2 (+38 % no interval)")
    noise = compare_rates("orm", [1000.0, 1010.0, 990.0], [1003.0, 992.0, 1008.0])
    assert noise.verdict.startswith("the same within ±5 % [")
    slower = compare_rates("orm", [1000.0, 1010.0, 990.0], [800.0, 810.0, 790.0])
    assert slower.verdict.startswith("slower by 20 % [")
    assert slower.slower_beyond(15) and not slower.slower_beyond(25)
    assert not once.slower_beyond(0) and not compare_rates("o", [1.0], [0.5]).slower_beyond(0)


def test_conditions_that_differ_are_named() -> None:
    embedded = ladder_v3({"orm": [1000.0]})
    embedded["conditions"] = {"server_settings": {"gunicorn": {"workers": 2}}, "python": "3.11"}
    full = ladder_v3({"orm": [900.0]}, full=True, server="uwsgi", concurrency=50)
    full["conditions"] = {"server_settings": {"uwsgi": {"processes": 2}}, "python": "3.11"}
    embedded_run, full_run = read_result(embedded), read_result(full)
    assert differences(run_conditions(embedded_run), run_conditions(full_run)) == [
        "services: embedded (SQLite, the in-process cache) vs --full (memcached, Redis, "
        "MariaDB, PostgreSQL)",
        "server: gunicorn vs uwsgi",
        "concurrency: 10 vs 50",
    ]
    assert differences(run_conditions(embedded_run), run_conditions(embedded_run)) == []


def test_runs_of_different_applications_are_named_as_such() -> None:
    """Issue 21: ``ladder --app django`` against a bare run is not the same experiment."""
    bare = read_result(ladder_v3({"string": [1000.0]}))
    django_document = ladder_v3({"string": [400.0]})
    for rung in django_document["rungs"]:
        rung["app"] = "django"
    django = read_result(django_document)
    assert differences(run_conditions(bare), run_conditions(django)) == [
        "application: bare vs django"
    ]
