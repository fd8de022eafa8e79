"""The results database: runs stored and read back, ladder documents of every version loaded,
a newer schema refused, and two runs compared with a significance test."""

import sqlite3
from pathlib import Path
from typing import Any

import pytest

from layerbench.errors import ConfigError
from layerbench.store.compare import compare_rates, compare_rungs
from layerbench.store.results_db import SCHEMA_VERSION, ResultsDatabase


def ladder_v3(rates: dict[str, list[float]], **options: Any) -> dict[str, Any]:
    return {
        "version": 3,
        "started_at": "2026-11-23T10:00:00+00:00",
        "finished_at": "2026-11-23T10:02:00+00:00",
        "interrupted": False,
        "options": {"concurrency": 10, "repeats": 5, "server": "gunicorn", **options},
        "rungs": [
            {
                "rung": rung,
                "status": "ok",
                "requests_per_s": sorted(values)[len(values) // 2],
                "repeats": [{"requests_per_s": value} for value in values],
            }
            for rung, values in rates.items()
        ],
    }


LADDER_V1 = {
    "version": 1,
    "started_at": "2026-11-20T10:00:00+00:00",
    "options": {"concurrency": 10, "workers": 2},
    "rungs": [
        {"rung": "static", "status": "ok", "requests_per_s": 9700.0},
        {"rung": "nginx-less", "status": "skipped", "requests_per_s": None},
    ],
}


def test_runs_are_stored_and_read_back(tmp_path: Path) -> None:
    database = ResultsDatabase(tmp_path / "results.sqlite3")
    first = database.add_run(ladder_v3({"string": [8000.0, 8100.0, 7900.0]}))
    second = database.add_run(LADDER_V1)
    assert [run.id for run in database.runs()] == [first, second]
    run = database.run(first)
    assert run.description == "embedded gunicorn c=10 x5"
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
    assert (run.kind, run.description) == ("matrix", "template on gunicorn, uwsgi c=10,10,100")
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
    with pytest.raises(ConfigError, match="newer than this layerbench"):
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
