"""The results database: every run's whole JSON document, and each rung's trials for queries.

A SQLite file (``$LAYERBENCH_RESULTS_DB``, else ``~/.local/share/layerbench/results.sqlite3``).
Its schema carries a version (``PRAGMA user_version``): a database made by an older layerbench
is migrated forward when opened; one made by a newer one is refused rather than misread.
Documents of every version of every kind a slice registers load
(:mod:`layerbench.store.run_summary`); their typed results are the slices' to read.

    1: runs (kind, times, interrupted, description, the document), trials (run, rung, repeat,
       req/s)
    2: runs.interrupted renamed ``partial`` (a run stopped before its end, stored with the rungs
       it measured); runs.label (``--label``)
    3: trials.app, the application that answered the rung: a run over several applications
       (``ladder --apps``) had stored each rung as ``APP RUNG``; such rows are split into their
       app and rung. Older rows of one application get "" (not recorded: the run's document
       names it); a matrix's cells too (their column names its application)

A database that cannot be read or written is a :class:`ResultsDatabaseError` naming it; rows
edited by hand into something unreadable are left out of what is read, each with a one-line
problem (:attr:`StoredRun.problems`), or, for a document asked for whole, an error.
"""

import json
import math
import os
import sqlite3
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from layerbench.documents import parse_json
from layerbench.errors import ConfigError, LayerbenchError, ResultsDatabaseError
from layerbench.store.run_summary import RungTrials, RunSummary, labelled, summarize_document
from layerbench.typed_documents import JsonObject, as_json

SCHEMA_VERSION = 3
# A run's number: a rowid, SQLite's 64-bit INTEGER PRIMARY KEY.
MAX_RUN_ID = 2**63 - 1
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
    2: """
        ALTER TABLE runs RENAME COLUMN interrupted TO partial;
        ALTER TABLE runs ADD COLUMN label TEXT;
    """,
    3: """
        CREATE TABLE trials_3 (
            run_id INTEGER NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
            app TEXT NOT NULL,
            rung TEXT NOT NULL,
            status TEXT NOT NULL,
            repeat INTEGER NOT NULL,
            requests_per_s REAL,
            PRIMARY KEY (run_id, app, rung, repeat)
        );
        INSERT INTO trials_3 (run_id, app, rung, status, repeat, requests_per_s)
            SELECT trials.run_id,
                   CASE WHEN runs.kind = 'ladder' AND instr(trials.rung, ' ') > 0
                        THEN substr(trials.rung, 1, instr(trials.rung, ' ') - 1) ELSE '' END,
                   CASE WHEN runs.kind = 'ladder' AND instr(trials.rung, ' ') > 0
                        THEN substr(trials.rung, instr(trials.rung, ' ') + 1) ELSE trials.rung END,
                   trials.status, trials.repeat, trials.requests_per_s
            FROM trials JOIN runs ON runs.id = trials.run_id
            ORDER BY trials.rowid;
        DROP TABLE trials;
        ALTER TABLE trials_3 RENAME TO trials;
    """,
}


def fallback_path() -> Path:
    """The database when ``$LAYERBENCH_RESULTS_DB`` is not set."""
    data_home = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(data_home) / "layerbench" / "results.sqlite3"


def default_path() -> Path:
    configured = os.environ.get(PATH_VARIABLE)
    return Path(configured) if configured else fallback_path()


@dataclass(frozen=True)
class StoredRun:
    id: int
    kind: str
    started_at: str | None
    partial: bool
    label: str | None
    server: str
    settings: str
    description: str
    rungs: tuple[RungTrials, ...]
    # What could not be read (rows edited by hand), one line each, left out of the above.
    problems: tuple[str, ...] = ()


class ResultsDatabase:
    def __init__(self, path: Path) -> None:
        self.path = path
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise ResultsDatabaseError(f"the results database {path}: {error.strerror}") from None
        with self._errors("cannot be opened"):
            self._connection = sqlite3.connect(path)
        with self._errors("cannot be opened"):
            self._connection.execute("PRAGMA foreign_keys = ON")
            self._migrate()

    @contextmanager
    def _errors(self, what: str) -> Iterator[None]:
        """SQLite's errors as one line naming the database: read-only, corrupt, locked."""
        try:
            yield
        except sqlite3.Error as error:
            raise ResultsDatabaseError(
                f"the results database {self.path} {what}: {error}"
            ) from None

    def _migrate(self) -> None:
        (version,) = self._connection.execute("PRAGMA user_version").fetchone()
        if version < 0:
            self.close()
            raise ResultsDatabaseError(
                f"the results database {self.path} has schema version {version}, which no "
                "layerbench writes: it is not a results database (or was edited by hand)"
            )
        if version > SCHEMA_VERSION:
            self.close()
            raise ResultsDatabaseError(
                f"the results database {self.path} has schema version {version}, newer than "
                f"this layerbench's {SCHEMA_VERSION}: upgrade layerbench to read it"
            )
        for step in range(version + 1, SCHEMA_VERSION + 1):
            # One transaction: the step's changes and its version, or neither.
            with self._errors(f"cannot be migrated to schema version {step}"), self._connection:
                self._connection.executescript(
                    f"BEGIN; {MIGRATIONS[step]}; PRAGMA user_version = {step}; COMMIT;"
                )

    def close(self) -> None:
        self._connection.close()

    def __enter__(self) -> "ResultsDatabase":
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def add_run(self, document: JsonObject, label: str | None = None) -> int:
        """Stores a ladder's, a mix's or a matrix's JSON document (any version); returns the
        run's id. A matrix's cells are stored as its rungs, one trial each. An interrupted run
        is stored as partial."""
        summary = summarize_document(document)
        with self._errors("cannot be written"), self._connection:
            cursor = self._connection.execute(
                "INSERT INTO runs (kind, started_at, finished_at, partial, label, description, "
                "document) VALUES (?, ?, ?, ?, ?, ?, ?)",
                (
                    summary.kind,
                    summary.started_at,
                    summary.finished_at,
                    int(summary.interrupted),
                    label or None,
                    summary.description,
                    json.dumps(document),
                ),
            )
            run_id = cursor.lastrowid
            assert run_id is not None
            self._connection.executemany(
                "INSERT INTO trials (run_id, app, rung, status, repeat, requests_per_s) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                list(_trial_rows(run_id, summary)),
            )
        return run_id

    def remove(self, run_ids: Sequence[int]) -> None:
        """Removes the runs, all or none: one that is not stored is refused before any goes."""
        for run_id in run_ids:
            self._row(run_id, "id")
        with self._errors("cannot be written"), self._connection:
            self._connection.executemany(
                "DELETE FROM runs WHERE id = ?", [(run_id,) for run_id in run_ids]
            )

    def runs(self) -> list[StoredRun]:
        with self._errors("cannot be read"):
            rows = self._connection.execute("SELECT id FROM runs ORDER BY id").fetchall()
        return [self.run(run_id) for (run_id,) in rows]

    def run(self, run_id: int) -> StoredRun:
        kind, started_at, partial, label, description = self._row(
            run_id, "kind, started_at, partial, label, description"
        )
        rungs, problems = self._rungs(run_id)
        server, settings = "?", ""
        try:
            summary = summarize_document(self.document(run_id))
        except LayerbenchError as error:
            problems.append(str(error))
        else:
            server, settings, description = summary.server, summary.settings, summary.description
        return StoredRun(
            run_id,
            str(kind),
            started_at,
            bool(partial),
            label,
            server,
            settings,
            str(description),
            rungs,
            tuple(problems),
        )

    def _rungs(self, run_id: int) -> tuple[tuple[RungTrials, ...], list[str]]:
        with self._errors("cannot be read"):
            trials = self._connection.execute(
                "SELECT app, rung, status, repeat, requests_per_s FROM trials WHERE run_id = ? "
                "ORDER BY rowid",
                (run_id,),
            ).fetchall()
        several_apps = len({str(app) for app, *_ in trials if app}) > 1
        rungs: dict[tuple[str, str], RungTrials] = {}
        problems = []
        for app, rung, status, repeat, rate in trials:
            label = labelled(str(rung), str(app), several_apps)
            empty = RungTrials(label, str(status), (), str(app), str(rung))
            known = rungs.get((app, rung), empty)
            if rate is not None and not _is_rate(rate):
                problems.append(
                    f"run {run_id}, rung {label}, trial {repeat}: req/s {rate!r} is not a number "
                    "(edited by hand?); left out"
                )
            elif rate is not None:
                known = replace(known, rates=(*known.rates, float(rate)))
            rungs[(app, rung)] = known
        return tuple(rungs.values()), problems

    def document(self, run_id: int) -> JsonObject:
        """The run's JSON document as it was stored; one edited by hand into something that is
        not a JSON object is an error naming the run."""
        (text,) = self._row(run_id, "document")
        if not isinstance(text, str | bytes):
            raise ResultsDatabaseError(
                f"run {run_id}'s stored document is not JSON text (edited by hand?)"
            )
        try:
            document = parse_json(text, f"run {run_id}'s stored document", " (edited by hand?)")
        except ConfigError as error:
            raise ResultsDatabaseError(str(error)) from None
        if not isinstance(document, dict):
            raise ResultsDatabaseError(
                f"run {run_id}'s stored document is not a JSON object (edited by hand?)"
            )
        return as_json(document)

    def _row(self, run_id: int, columns: str) -> tuple[Any, ...]:
        if not 1 <= run_id <= MAX_RUN_ID:  # SQLite's rowids; a larger one overflowed it
            raise ConfigError(f"no run {run_id} in {self.path} (see: layerbench results list)")
        with self._errors("cannot be read"):
            row = self._connection.execute(
                f"SELECT {columns} FROM runs WHERE id = ?", (run_id,)
            ).fetchone()
        if row is None:
            raise ConfigError(f"no run {run_id} in {self.path} (see: layerbench results list)")
        return tuple(row)


def _is_rate(value: object) -> bool:
    return isinstance(value, int | float) and math.isfinite(value) and value >= 0


def _trial_rows(run_id: int, summary: RunSummary) -> list[tuple[Any, ...]]:
    rows: list[tuple[Any, ...]] = []
    for rung in summary.rungs:
        place = (run_id, rung.app, rung.rung_name, rung.status)
        if not rung.rates:
            rows.append((*place, 0, None))
        rows += [(*place, repeat, rate) for repeat, rate in enumerate(rung.rates, start=1)]
    return rows
