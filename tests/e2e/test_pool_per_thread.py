"""The ORM's pool under the servers that run our own Python on a pool of threads (issue 21's
follow-up to seed 000's): their adapter tells the application its threads per process
(``$LAYERBENCH_THREADS_PER_PROCESS``), and the pool keeps one connection per thread instead of
SQLAlchemy's 5 kept + 10 opened and closed per request."""

from pathlib import Path

import pytest

from layerbench.lab.loadgen import LoadSpec, run_load
from layerbench.proc.ports import free_port
from layerbench.rungs.definitions import ORM_MARIADB
from layerbench.servers.adapters import ServerPlan, find_adapter
from layerbench_sites.app.app_config import ServiceUrls
from layerbench_sites.app.ladder_data import prepare_app_data
from tests.e2e.test_seed_000_chain import _connections, _seed_once

THREADS = 8


# gunicorn's gthread case (two workers) is the wider run's (make test-wide).
# (server, its settings, its processes)
Case = tuple[str, dict[str, str], int]


@pytest.mark.parametrize(
    "case",
    [
        ("waitress", {"threads": str(THREADS)}, 1),
        pytest.param(
            ("gunicorn", {"workers": "2", "worker_class": "gthread", "threads": str(THREADS)}, 2),
            marks=pytest.mark.wide,
        ),
    ],
    ids=["waitress", "gunicorn-gthread"],
)
def test_the_orm_keeps_a_connection_per_thread_under_a_threaded_python_server(
    case: Case,
    workdir: Path,
    load_binary: Path,
    mariadb_url: str,
) -> None:
    server, settings, processes = case
    _seed_once(mariadb_url)
    data = prepare_app_data(workdir / "data", ServiceUrls(mariadb=mariadb_url))
    plan = ServerPlan(
        workdir / "server",
        free_port(),
        data.db_path,
        {},
        {server: settings},
        app_environment=data.environment,
    )
    deployment = find_adapter(server).build(plan)
    spec = LoadSpec(concurrency=4 * THREADS, duration_s=1.5, warmup_s=0.3)
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
    assert load.errors == 0 and load.requests_completed > 200, load
    # One connection per thread of each process, kept for every request after.
    limit = processes * THREADS
    assert opened <= limit, f"{opened} connections for {load.requests_completed} requests"
