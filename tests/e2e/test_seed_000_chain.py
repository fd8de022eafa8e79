"""Seed 000's chain, faithfully (issue 21): under Apache the static rung is Apache's own file;
the full ladder's ORM rung on MariaDB goes through MySQLdb, against MySQLdb's rung; and under
Apache's 25 threads per child (mod_wsgi's, mod_python's) the ORM keeps one connection per thread
instead of opening and closing one per request (SQLAlchemy's default pool, 5 + 10, did)."""

import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from layerbench.lab.loadgen import LoadSpec, run_load
from layerbench.proc.ports import free_port
from layerbench.rungs.definitions import ORM_MARIADB
from layerbench.rungs.seeding import SEEDERS
from layerbench.rungs.service_clients import mariadb_connection
from layerbench.servers.adapters import ServerPlan, find_adapter
from layerbench.servers.apache import MODULES_DIR
from layerbench.servers.mod_wsgi import APT_PACKAGE as MOD_WSGI_PACKAGE
from layerbench_sites.app.app_config import ServiceUrls
from layerbench_sites.app.ladder_data import prepare_app_data
from tests.conftest import missing

LAYERBENCH = [sys.executable, "-m", "layerbench.cli"]
QUICK = ["-d", "0.5", "--warmup", "0.2", "--repeats", "1"]


def _require_mod_wsgi(require_program: Callable[[str, str], Path]) -> None:
    require_program("apache2", "apache2")
    if not (MODULES_DIR / "mod_wsgi.so").exists():
        missing(f"mod_wsgi is not installed (apt install {MOD_WSGI_PACKAGE})")


def test_under_apache_the_static_rung_is_apaches_own_and_the_orm_on_mariadb_is_against_mysqldb(
    tmp_path: Path, require_program: Callable[[str, str], Path], load_binary: Path
) -> None:
    _require_mod_wsgi(require_program)
    rungs = "static,string,mariadb-raw,orm-mariadb"
    completed = subprocess.run(
        [*LAYERBENCH, "ladder", "--full", "--server", "mod_wsgi-embedded", "--rungs", rungs,
         *QUICK, "-c", "4", "--json", "out.json"],
        capture_output=True, text=True, cwd=tmp_path, timeout=180, check=False,
    )  # fmt: skip
    assert completed.returncode == 0, completed.stderr
    document = json.loads((tmp_path / "out.json").read_text())
    by_name = {rung["rung"]: rung for rung in document["rungs"]}
    assert all(rung["status"] == "ok" for rung in by_name.values()), document["rungs"]
    assert by_name["static"]["server"] == "apache-static"
    static_processes = by_name["static"]["roles"]["server"]["processes"]
    assert {process["name"] for process in static_processes} == {"apache2"}
    assert by_name["orm-mariadb"]["server"] == "mod_wsgi-embedded"
    # mariadb (MySQLdb) is not in this run: the ORM is against the next of its chain.
    assert by_name["orm-mariadb"]["above"] == "mariadb-raw"
    assert by_name["mariadb-raw"]["above"] == "string"
    table = completed.stdout.split("\n\n")[0]
    assert any(line.split()[:2] == ["static", "apache-static"] for line in table.splitlines())


# mod_python's case is the slower, wider run's (make test-wide): the same pool, another server.
@pytest.mark.parametrize(
    "server", ["mod_wsgi-embedded", pytest.param("mod_python-wsgi", marks=pytest.mark.wide)]
)
def test_the_orm_keeps_a_connection_per_thread_under_apaches_threads(
    server: str,
    workdir: Path,
    require_program: Callable[[str, str], Path],
    load_binary: Path,
    mariadb_url: str,
) -> None:
    if server == "mod_wsgi-embedded":
        _require_mod_wsgi(require_program)
    elif not (MODULES_DIR / "mod_python.so").exists():
        missing("mod_python is not installed (apt install libapache2-mod-python)")
    _seed_once(mariadb_url)
    data = prepare_app_data(workdir / "data", ServiceUrls(mariadb=mariadb_url))
    # Two children of 25 threads at most, as the event MPM runs them by default.
    book = {"apache": {"max_request_workers": "50"}}
    plan = ServerPlan(
        workdir / "server", free_port(), data.db_path, {}, book, app_environment=data.environment
    )
    deployment = find_adapter(server).build(plan)
    spec = LoadSpec(concurrency=50, duration_s=1.5, warmup_s=0.3)
    before = _connections(mariadb_url)
    with deployment:
        load = run_load(
            binary=load_binary,
            url=deployment.base_url + ORM_MARIADB.path,
            spec=spec,
            workdir=workdir,
            label="orm",
        )
    opened = _connections(mariadb_url) - before - 1  # the count's own connection
    assert load.errors == 0 and load.requests_completed > 500, load
    # One connection per thread of each of the two children, kept for every request after.
    assert opened <= 50, f"{opened} connections for {load.requests_completed} requests"


def _seed_once(url: str) -> None:
    """The rung data in the session's MariaDB, unless a test before this one put it there."""
    connection = mariadb_connection(url)
    try:
        with connection.cursor() as cursor:
            cursor.execute("SHOW TABLES LIKE 'hello'")
            seeded = cursor.fetchone() is not None
    finally:
        connection.close()  # type: ignore[no-untyped-call]
    if not seeded:
        SEEDERS["mariadb"](url)


def _connections(url: str) -> int:
    """MariaDB's count of connections ever opened (ours included)."""
    connection = mariadb_connection(url)
    try:
        with connection.cursor() as cursor:
            cursor.execute("SHOW GLOBAL STATUS LIKE 'Connections'")
            row = cursor.fetchone()
    finally:
        connection.close()  # type: ignore[no-untyped-call]
    assert row is not None
    return int(row[1])
