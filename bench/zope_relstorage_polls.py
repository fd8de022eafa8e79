"""What RelStorage asks of its database per request of the Zope application (its polls: seed
000 says "the MySQL connector in RelStorage can poll the database at least 1476 times per
second"), on ``relstorage-postgres`` (transactions, from pg_stat_database for the ZODB's own
database) and ``relstorage-mariadb`` (statements: the server's Questions, less this script's
own), and the rate of the orm rung's requests one client gets on each, against the same
client's rate on the FileStorage behind ZEO in the same run (the anchor).

    .venv/bin/python bench/zope_relstorage_polls.py [REQUESTS]
"""

import http.client
import sys
import tempfile
import time
from pathlib import Path

import psycopg

from layerbench.lab.app_storage import made_database
from layerbench.proc.ports import free_port
from layerbench.rungs.applications import ZOPE
from layerbench.servers.gunicorn import GunicornServer, GunicornSettings
from layerbench.services.mariadb import connect_mariadb
from layerbench.services.registry import service_class
from layerbench.site_contract import USER_APP_VARIABLE
from layerbench_sites.app.ladder_data import prepare_app_data
from layerbench_sites.frameworks.zope_site.storage import (
    RELSTORAGE_URL_VARIABLE,
    STORAGE_VARIABLE,
)

PATH = "/ladder/orm"
TRANSACTIONS = "SELECT xact_commit + xact_rollback FROM pg_stat_database WHERE datname = %s"
# The ZODB's own database on the service, named as the application declares it.
DATABASE = ZOPE.storage.database if ZOPE.storage else "zodb"


def requests_per_second(port: int, requests: int) -> float:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    started = time.perf_counter()
    for _ in range(requests):
        connection.request("GET", PATH)
        response = connection.getresponse()
        response.read()
        assert response.status == 200, response.status
    elapsed = time.perf_counter() - started
    connection.close()
    return requests / elapsed


def postgres_transactions(admin_url: str) -> int:
    time.sleep(1.5)  # the backends flush their statistics within a second of going idle
    with psycopg.connect(admin_url, autocommit=True) as connection:
        row = connection.execute(TRANSACTIONS, (DATABASE,)).fetchone()
    assert row is not None
    return int(row[0])


def mariadb_statements(admin_url: str) -> int:
    with connect_mariadb(admin_url) as connection, connection.cursor() as cursor:
        cursor.execute("SHOW GLOBAL STATUS LIKE 'Questions'")
        row = cursor.fetchone()
    assert row is not None
    return int(row[1]) - 1  # this statement


COUNTERS = {"postgres": postgres_transactions, "mariadb": mariadb_statements}
UNIT = {"postgres": "transactions", "mariadb": "statements"}


def serve(workdir: Path, environment: dict[str, str]) -> GunicornServer:
    data = prepare_app_data(workdir / "data")
    assert ZOPE.entry is not None
    environment = {USER_APP_VARIABLE: ZOPE.entry, **data.environment, **environment}
    settings = GunicornSettings(workers=1, worker_class="sync")
    return GunicornServer(
        workdir / "gunicorn", free_port(), data.db_path, settings, app_environment=environment
    )


def on_relstorage(workdir: Path, kind: str, requests: int) -> tuple[float, float]:
    """The rate, and the database's work per request (:data:`UNIT`)."""
    with service_class(kind)() as service:
        url = made_database(kind, service.url, DATABASE)
        storage = f"relstorage-{kind}"
        environment = {STORAGE_VARIABLE: storage, RELSTORAGE_URL_VARIABLE: url}
        with serve(workdir / storage, environment) as server:
            requests_per_second(server.port, 200)  # warm
            before = COUNTERS[kind](service.url)
            rate = requests_per_second(server.port, requests)
            after = COUNTERS[kind](service.url)
    return rate, (after - before) / requests


def main() -> None:
    requests = int(sys.argv[1]) if len(sys.argv) > 1 else 2000
    with tempfile.TemporaryDirectory(prefix="layerbench-zrs-") as scratch:
        workdir = Path(scratch)
        with serve(workdir / "zeo", {}) as server:
            requests_per_second(server.port, 200)
            anchor = requests_per_second(server.port, requests)
        measured = {kind: on_relstorage(workdir, kind, requests) for kind in COUNTERS}
    print(f"{requests} sequential GET {PATH}, gunicorn sync workers=1, one client")
    print(f"filestorage behind ZEO (anchor): {anchor:,.0f} req/s")
    for kind, (rate, work) in measured.items():
        unit = UNIT[kind]
        print(
            f"relstorage-{kind}: {rate:,.0f} req/s ({rate / anchor:.2f} x anchor); "
            f"{work:.2f} {unit} per request, {rate * work:,.0f} {unit} per second"
        )


if __name__ == "__main__":
    main()
