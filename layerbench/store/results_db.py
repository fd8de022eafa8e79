"""The results database: every run's whole JSON document, and each rung's trials for queries.

A SQLite file (``$LAYERBENCH_RESULTS_DB``, else ``~/.local/share/layerbench/results.sqlite3``).
Its schema carries a version (``PRAGMA user_version``): a database made by an older layerbench
is migrated forward when opened; one made by a newer one is refused rather than misread.
Documents of every ladder JSON version, and matrices', load (:mod:`layerbench.store.documents`).

    1: runs (kind, times, interrupted, description, the document), trials (run, rung, repeat,
       req/s)
"""

import json
import os
import sqlite3
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from layerbench.errors import ConfigError
from layerbench.store.documents import RungTrials, RunSummary, read_run_document

SCHEMA_VERSION = 1
PATH_VARIABLE = "LAYERBENCH_RESULTS_DB"
MIGRATIONS = {
    1: """
        CREATE TABLE runs (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            kind TEXT NOT NULL,
            started_at TEXT,
            finished_at TEXT,
            interrupted INTEGER NOT NULL,
            description TEXT NOT NULL,
            document TEXT NOT NULL
        );
        CREATE TABLE trials (
            run_id INTEGER NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
            rung TEXT NOT NULL,
            status TEXT NOT NULL,
            repeat INTEGER NOT NULL,
            requests_per_s REAL,
            PRIMARY KEY (run_id, rung, repeat)
        );
    """,
}


def default_path() -> Path:
    configured = os.environ.get(PATH_VARIABLE)
    if configured:
        return Path(configured)
    data_home = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(data_home) / "layerbench" / "results.sqlite3"


@dataclass(frozen=True)
class StoredRun:
    id: int
    kind: str
    started_at: str | None
    interrupted: bool
    description: str
    rungs: tuple[RungTrials, ...]


class ResultsDatabase:
    def __init__(self, path: Path) -> None:
        self.path = path
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            self._connection = sqlite3.connect(path)
            self._connection.execute("PRAGMA foreign_keys = ON")
            self._migrate()
        except sqlite3.DatabaseError as error:
            raise ConfigError(f"the results database {path}: {error}") from None
        except OSError as error:
            raise ConfigError(f"the results database {path}: {error.strerror}") from None

    def _migrate(self) -> None:
        (version,) = self._connection.execute("PRAGMA user_version").fetchone()
        if version > SCHEMA_VERSION:
            raise ConfigError(
                f"the results database {self.path} has schema version {version}, newer than "
                f"this layerbench's {SCHEMA_VERSION}: upgrade layerbench to read it"
            )
        for step in range(version + 1, SCHEMA_VERSION + 1):
            with self._connection:
                self._connection.executescript(MIGRATIONS[step])
                self._connection.execute(f"PRAGMA user_version = {step}")

    def close(self) -> None:
        self._connection.close()

    def __enter__(self) -> "ResultsDatabase":
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def add_run(self, document: dict[str, Any]) -> int:
        """Stores a ladder's, a mix's or a matrix's JSON document (any version); returns the
        run's id. A matrix's cells are stored as its rungs, one trial each."""
        summary = read_run_document(document)
        with self._connection:
            cursor = self._connection.execute(
                "INSERT INTO runs (kind, started_at, finished_at, interrupted, description, "
                "document) VALUES (?, ?, ?, ?, ?, ?)",
                (
                    summary.kind,
                    summary.started_at,
                    summary.finished_at,
                    int(summary.interrupted),
                    summary.description,
                    json.dumps(document),
                ),
            )
            run_id = cursor.lastrowid
            assert run_id is not None
            self._connection.executemany(
                "INSERT INTO trials (run_id, rung, status, repeat, requests_per_s) "
                "VALUES (?, ?, ?, ?, ?)",
                list(_trial_rows(run_id, summary)),
            )
        return run_id

    def runs(self) -> list[StoredRun]:
        rows = self._connection.execute("SELECT id FROM runs ORDER BY id").fetchall()
        return [self.run(run_id) for (run_id,) in rows]

    def run(self, run_id: int) -> StoredRun:
        row = self._connection.execute(
            "SELECT kind, started_at, interrupted, description FROM runs WHERE id = ?", (run_id,)
        ).fetchone()
        if row is None:
            raise ConfigError(f"no run {run_id} in {self.path} (see: layerbench results list)")
        kind, started_at, interrupted, description = row
        trials = self._connection.execute(
            "SELECT rung, status, requests_per_s FROM trials WHERE run_id = ? ORDER BY rowid",
            (run_id,),
        ).fetchall()
        rungs: dict[str, RungTrials] = {}
        for rung, status, rate in trials:
            known = rungs.get(rung, RungTrials(rung, status, ()))
            rates = known.rates + ((rate,) if rate is not None else ())
            rungs[rung] = RungTrials(rung, status, rates)
        return StoredRun(
            run_id, kind, started_at, bool(interrupted), description, tuple(rungs.values())
        )

    def document(self, run_id: int) -> dict[str, Any]:
        row = self._connection.execute(
            "SELECT document FROM runs WHERE id = ?", (run_id,)
        ).fetchone()
        if row is None:
            raise ConfigError(f"no run {run_id} in {self.path} (see: layerbench results list)")
        document: dict[str, Any] = json.loads(row[0])
        return document


def _trial_rows(run_id: int, summary: RunSummary) -> list[tuple[Any, ...]]:
    rows: list[tuple[Any, ...]] = []
    for rung in summary.rungs:
        if not rung.rates:
            rows.append((run_id, rung.rung, rung.status, 0, None))
        rows += [
            (run_id, rung.rung, rung.status, repeat, rate)
            for repeat, rate in enumerate(rung.rates, start=1)
        ]
    return rows
