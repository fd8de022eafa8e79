"""``layerbench writes``: ZODB commits through RelStorage on real PostgreSQL and MariaDB, ZEO and
FileStorage, and the site's SQL write path; the project's workarounds for RelStorage 4.3 on
MariaDB 10.11, and the failures they work around (still there upstream); MariaDB's profiles."""

import json
import os
import signal
import subprocess
import sys
import zlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import MySQLdb
import pymysql
import pytest
import transaction
import ZODB
from persistent.mapping import PersistentMapping
from relstorage.adapters.mysql import MySQLAdapter
from relstorage.options import Options
from relstorage.storage import RelStorage

from layerbench.errors import MissingBinaryError
from layerbench.services.mariadb import MariadbService, connect_mariadb
from layerbench.services.urls import ServiceUrl
from layerbench.stats.percentile import percentile
from layerbench_sites.relstorage_mariadb import MariadbAdapter
from tests.cli_lines import said
from tests.conftest import missing, start_service

pytestmark = pytest.mark.services
LAYERBENCH = [sys.executable, "-m", "layerbench.cli"]
# MariaDB's error for a KILL of a session that has ended.
UNKNOWN_THREAD = 1094
ROOT = Path(__file__).parent.parent.parent


@pytest.fixture
def mariadb_database(mariadb_url: str, request: pytest.FixtureRequest) -> Iterator[dict[str, Any]]:
    """A database of its own on the session's MariaDB, as RelStorage's adapter takes it."""
    parsed = ServiceUrl.parse(mariadb_url)
    name = f"relstorage_{zlib.crc32(request.node.nodeid.encode())}"
    connection = connect_mariadb(mariadb_url)
    with connection.cursor() as cursor:
        cursor.execute(f"CREATE DATABASE `{name}`")
    try:
        yield {"host": parsed.host, "port": parsed.port, "user": parsed.user or "root", "db": name}
    finally:
        with connection.cursor() as cursor:
            # RelStorage's adapter keeps a connection in a failed commit's transaction, its
            # locks held, past the database's close: ended, or the DROP would wait for it.
            cursor.execute(
                "SELECT id FROM information_schema.processlist"
                " WHERE db = %s AND id <> CONNECTION_ID()",
                (name,),
            )
            for (session,) in cursor.fetchall():
                try:
                    cursor.execute(f"KILL {int(session)}")
                except pymysql.err.OperationalError as error:
                    if error.args[0] != UNKNOWN_THREAD:  # it ended meanwhile: as wanted
                        raise
            cursor.execute(f"DROP DATABASE `{name}`")
        connection.close()


def commit_and_read_back(adapter_class: type[Any], params: dict[str, Any], history: bool) -> Any:
    options = Options(keep_history=history, create_schema=True)
    adapter = adapter_class(options=options, **params)
    try:
        storage = RelStorage(adapter, options=options)
    except BaseException:
        adapter.release()  # its connections, which would hold the database open
        raise
    db = ZODB.DB(storage)
    manager = transaction.TransactionManager()
    try:
        connection = db.open(manager)
        connection.root()["comment"] = PersistentMapping(body="Hello world!")
        manager.commit()
        connection.root()["comment"]["body"] = "Hello again!"  # an update: the upsert
        manager.commit()
        connection.close()
        connection = db.open(manager)
        body = connection.root()["comment"]["body"]
        connection.close()
        return body
    finally:
        manager.abort()  # a failed commit's transaction, which holds its locks
        db.close()


@pytest.mark.parametrize("history", [True, False], ids=["history-preserving", "history-free"])
def test_relstorage_commits_on_mariadb_with_the_workarounds(
    mariadb_database: dict[str, Any], history: bool
) -> None:
    assert commit_and_read_back(MariadbAdapter, mariadb_database, history) == "Hello again!"


@pytest.mark.parametrize(
    ("history", "error"),
    [(True, "errno: 150"), (False, "1064")],
    ids=["history-preserving", "history-free"],
)
def test_relstorage_mysql_adapter_alone_still_fails_on_mariadb(
    mariadb_database: dict[str, Any], history: bool, error: str
) -> None:
    """The failures the workarounds are for, as RelStorage 4.3 has them: when this fails,
    upstream has mended them, and layerbench_sites/relstorage_mariadb.py may go."""
    with pytest.raises(MySQLdb.MySQLError, match=error):
        commit_and_read_back(MySQLAdapter, mariadb_database, history)


def test_seed003_profile_gives_innodb_the_seeds_settings() -> None:
    service = MariadbService(profile="seed003")
    try:
        start_service_instance(service)
        connection = connect_mariadb(service.url)
        with connection, connection.cursor() as cursor:
            cursor.execute(
                "SELECT @@innodb_buffer_pool_size, @@innodb_log_file_size,"
                " @@innodb_log_buffer_size, @@innodb_data_file_path,"
                " @@innodb_flush_log_at_trx_commit, @@innodb_file_per_table"
            )
            row = cursor.fetchone()
    finally:
        service.stop()
    assert row == (256 * 2**20, 64 * 2**20, 8 * 2**20, "ibdata1:10M:autoextend", 1, 1)


def start_service_instance(service: MariadbService) -> None:
    """``service`` started, or the test skipped (failed under LAYERBENCH_REQUIRE_SERVICES=1)
    when MariaDB is not installed."""
    try:
        service.start()
    except MissingBinaryError as error:
        missing(str(error))


EVERY_STORE = "filestorage,zeo,relstorage-postgres,relstorage-mariadb,site-postgres,site-mariadb"


@pytest.mark.parametrize(
    "stores",
    [
        "filestorage,zeo,relstorage-postgres",
        # Every store: a minute on this project's machines (the MariaDB ones are tested above).
        pytest.param(EVERY_STORE, marks=pytest.mark.wide),
    ],
    ids=["zodb-stores", "every-store"],
)
def test_writes_measures_the_stores_and_leaves_nothing(tmp_path: Path, stores: str) -> None:
    for kind in ("postgres", "mariadb"):
        if kind in stores:
            start_service(kind).stop()
    command = [*LAYERBENCH, "writes", "--store", stores, "--writers", "1,2", "--objects", "50"]
    command += ["--commits", "6", "--repeats", "1", "--json", str(tmp_path / "writes.json")]
    # Run as a subreaper's child, which reports any process left behind once it has exited.
    reaper = subprocess.run(
        [sys.executable, "-m", "tests.reaper", "NEVER PRINTED", "600", "--", *command],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        cwd=tmp_path,
        check=False,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    report = json.loads(reaper.stdout.splitlines()[-1])  # after the command's own table
    assert report["exit"] == 0, report["stderr"]
    assert report["left"] == []
    document = json.loads((tmp_path / "writes.json").read_text())
    rows = {(row["store"], row["writers"]): row for row in document["rows"]}
    assert set(rows) == {(store, writers) for store in stores.split(",") for writers in (1, 2)}
    for trial in document["trials"]:
        assert trial["commits"] == 6 and trial["commits_per_s"] > 0, trial
        assert trial["p99_latency_us"] >= trial["p50_latency_us"] > 0, trial
    # The servers are the database role; FileStorage has none (it is in the writers' process).
    assert rows[("relstorage-postgres", 1)]["pss_bytes"]["database"] > 0
    assert rows[("zeo", 2)]["pss_bytes"]["database"] > 0
    assert rows[("filestorage", 1)]["pss_bytes"]["database"] == 0
    # Every trial's database is the one grown, plus the trials before it.
    first, second = (t for t in document["trials"] if t["store"] == "zeo")
    assert (first["objects_before"], second["objects_before"]) == (50, 56)
    assert not list(Path(os.environ.get("TMPDIR", "/tmp")).glob("layerbench-writes-*"))


def test_ctrl_c_keeps_the_trials_measured_and_leaves_nothing(tmp_path: Path) -> None:
    """The --json file is written after every trial: interrupted after the first, it holds
    that trial, marked interrupted; the run's directory is gone."""
    results = tmp_path / "writes.json"
    command = [*LAYERBENCH, "writes", "--store", "filestorage", "--writers", "1", "--objects"]
    command += ["10", "--commits", "5", "--repeats", "100", "--json", str(results)]
    writes = subprocess.Popen(command, stderr=subprocess.PIPE, text=True, cwd=tmp_path)
    try:
        assert writes.stderr is not None
        for line in writes.stderr:
            if line.startswith("filestorage writers=1 pass 1:"):
                writes.send_signal(signal.SIGINT)
                break
        err = writes.communicate(timeout=60)[1]
    finally:
        if writes.poll() is None:
            writes.kill()
            writes.wait()
    assert writes.returncode == 130, err
    document = json.loads(results.read_text())
    assert document["interrupted"] is True and document["finished_at"], document
    assert 1 <= len(document["trials"]) < 100
    assert not list(Path(os.environ.get("TMPDIR", "/tmp")).glob("layerbench-writes-*"))


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["--store", "oracle"], "no store named oracle; the stores are relstorage-postgres"),
        (["--writers", "0"], "--writers: whole numbers from 1"),
        (["--writers", "a,b"], "--writers 'a,b': comma-separated whole numbers"),
        (["--set", "mariadb.profile=fast"], "mariadb.profile is one of default, seed003"),
        (["--set", "postgres.x=1"], "no server reads settings for postgres"),
        (["--commits", "2", "--writers", "4"], "--commits 2: at least one per writer"),
        (["--store", "zeo:seed003"], "zeo:seed003: only a MariaDB store names a profile"),
        (["--store", "site-mariadb:fast"], "mariadb.profile is one of default, seed003"),
        (
            ["--json", "/nonexistent/dir/writes.json"],
            "cannot write the results to /nonexistent/dir/writes.json: /nonexistent/dir is not",
        ),
    ],
)
def test_bad_input_is_one_line_and_starts_nothing(arguments: list[str], message: str) -> None:
    done = subprocess.run(
        [*LAYERBENCH, "writes", *arguments], capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode == 2
    assert message in done.stderr
    assert len(said(done.stderr).strip().splitlines()) == 1


def test_commit_latency_percentiles_are_the_load_generators_nearest_ranks() -> None:
    one_to_n = list(range(9000, 0, -1))
    assert percentile(one_to_n, 500) == 4500.0
    assert percentile(one_to_n, 990) == 8910.0
    assert percentile(one_to_n, 999) == 8991.0
    assert percentile([], 990) == 0.0
