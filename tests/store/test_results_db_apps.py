"""The results database's app column (schema 3): a run over several applications stores each
rung as its application and its own name, shown and compared as ``APP RUNG`` as before; a
version 2 database, which stored ``APP RUNG`` as the rung's name, is migrated into the two;
``results show`` has an app column for a run of an application other than the bare one."""

import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from layerbench.cli.main import run
from layerbench.stats.comparison import compare_rungs
from layerbench.store.results_db import MIGRATIONS, SCHEMA_VERSION, ResultsDatabase
from tests.stored_runs import ladder_v3


def over_apps(rates: dict[tuple[str, str], list[float]]) -> dict[str, Any]:
    """A ladder document over several applications (``ladder --apps``)."""
    document = ladder_v3({f"{app} {rung}": values for (app, rung), values in rates.items()})
    apps = list(dict.fromkeys(app for app, _ in rates))
    document["options"]["apps"] = apps
    for entry, (app, rung) in zip(document["rungs"], rates, strict=True):
        entry["app"], entry["rung"] = app, rung
    return document


RATES = {("bare", "string"): [9000.0, 9100.0], ("django", "string"): [3000.0, 3100.0]}


def stored_rows(path: Path) -> list[tuple[str, str, int]]:
    with sqlite3.connect(path) as connection:
        rows = connection.execute("SELECT app, rung, repeat FROM trials ORDER BY rowid").fetchall()
    connection.close()
    return rows


def test_each_rung_is_stored_with_its_application(tmp_path: Path) -> None:
    path = tmp_path / "results.sqlite3"
    with ResultsDatabase(path) as database:
        run = database.run(database.add_run(over_apps(RATES)))
        again = database.run(database.add_run(over_apps(RATES)))
    bare, django = ("bare", "string"), ("django", "string")
    assert stored_rows(path)[:4] == [(*bare, 1), (*bare, 2), (*django, 1), (*django, 2)]
    assert [(r.app, r.rung_name, r.rung) for r in run.rungs] == [
        ("bare", "string", "bare string"),
        ("django", "string", "django string"),
    ]
    assert [c.rung for c in compare_rungs(run.rungs, again.rungs)] == [
        "bare string",
        "django string",
    ]


def test_a_version_2_database_has_its_app_rungs_split(tmp_path: Path) -> None:
    path = tmp_path / "results.sqlite3"
    with sqlite3.connect(path) as connection:
        connection.executescript(MIGRATIONS[1] + MIGRATIONS[2] + "PRAGMA user_version = 2;")
        insert_run = "INSERT INTO runs (kind, partial, description, document) VALUES (?, 0, '', ?)"
        connection.execute(insert_run, ("ladder", json.dumps(over_apps(RATES))))
        connection.execute(insert_run, ("ladder", json.dumps(ladder_v3({"string": [8000.0]}))))
        old_rows = [
            (1, "bare string", 1, 9000.0),
            (1, "django string", 1, 3000.0),
            (2, "string", 1, 8000.0),
        ]
        connection.executemany(
            "INSERT INTO trials (run_id, rung, status, repeat, requests_per_s) "
            "VALUES (?, ?, 'ok', ?, ?)",
            old_rows,
        )
    connection.close()
    with ResultsDatabase(path) as database:
        several, one = database.runs()
    assert SCHEMA_VERSION == 3
    assert stored_rows(path) == [("bare", "string", 1), ("django", "string", 1), ("", "string", 1)]
    assert [(r.app, r.rung, r.rates) for r in several.rungs] == [
        ("bare", "bare string", (9000.0,)),
        ("django", "django string", (3000.0,)),
    ]
    # A run of one application, stored before the column: its app not recorded, its rung as it was.
    assert [(r.app, r.rung) for r in one.rungs] == [("", "string")]


def test_a_matrix_cell_keeps_its_name(tmp_path: Path) -> None:
    """A matrix's cells are named ``COLUMN c=N``: the migration splits only ladders' rungs."""
    path = tmp_path / "results.sqlite3"
    with sqlite3.connect(path) as connection:
        connection.executescript(MIGRATIONS[1] + MIGRATIONS[2] + "PRAGMA user_version = 2;")
        connection.execute(
            "INSERT INTO runs (kind, partial, description, document) VALUES ('matrix', 0, '', '{}')"
        )
        connection.execute(
            "INSERT INTO trials (run_id, rung, status, repeat, requests_per_s) "
            "VALUES (1, 'uwsgi c=100', 'ok', 1, 5000.0)"
        )
    connection.close()
    ResultsDatabase(path).close()
    assert stored_rows(path) == [("", "uwsgi c=100", 1)]


def test_results_show_names_each_rungs_application(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "results.sqlite3"
    with ResultsDatabase(path) as database:
        database.add_run(over_apps(RATES))
    assert run(["results", "--db", str(path), "show", "1"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[1].split()[:3] == ["app", "rung", "status"]
    assert [line.split()[:2] for line in lines[2:4]] == [["bare", "string"], ["django", "string"]]
