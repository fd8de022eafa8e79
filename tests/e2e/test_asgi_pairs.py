"""Every ASGI server adapter with every ASGI application (wide: ``make test-wide``): each pair
started for real on the embedded defaults with the upstream rung's delaying server, every rung
the application answers verified by its definition (the write too), the upstream rung no sooner
than its delay, and nothing left once the server stops. (One pair in the default run: the
first server with the first application.)"""

import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from layerbench.errors import MissingPackageError
from layerbench.lab.app_under_test import app_environment, check_installed
from layerbench.lab.verify import verify_rung
from layerbench.proc.http_probe import http_get
from layerbench.proc.ports import free_port
from layerbench.rungs.applications import APPLICATIONS, Application
from layerbench.rungs.definitions import APPLICATION_RUNGS, UPSTREAM
from layerbench.servers.adapters import ADAPTERS, ASGI, ServerPlan
from layerbench.services.upstream import UpstreamService
from layerbench_sites.app.app_config import ServiceUrls
from layerbench_sites.app.ladder_data import prepare_app_data
from tests.conftest import missing
from tests.e2e.test_adapters import sessions_of
from tests.proc_scan import session_members

DELAY_MS = 20
ASGI_SERVERS = [name for name, adapter in ADAPTERS.items() if ASGI in adapter.interfaces]
ASGI_APPS = [app for app in APPLICATIONS.values() if app.interface == ASGI]
PAIRS = [
    pytest.param(
        server, app, id=f"{server}-{app.name}", marks=[] if index == 0 else [pytest.mark.wide]
    )
    for index, (server, app) in enumerate(
        (server, app) for server in ASGI_SERVERS for app in ASGI_APPS
    )
]


@pytest.fixture(scope="module")
def upstream() -> Iterator[UpstreamService]:
    service = UpstreamService(ms=DELAY_MS)
    with service:
        yield service


@pytest.mark.parametrize(("server", "app"), PAIRS)
def test_asgi_server_runs_the_asgi_application_on_every_rung(
    server: str, app: Application, upstream: UpstreamService, workdir: Path
) -> None:
    try:
        check_installed(app)
    except MissingPackageError as error:
        missing(str(error))
    data = prepare_app_data(workdir / "data", ServiceUrls(upstream=upstream.url))
    plan = ServerPlan(
        workdir=workdir / "server",
        port=free_port(),
        db_path=data.db_path,
        static_files={},
        app_environment={**data.environment, **app_environment(app)},
    )
    deployment = ADAPTERS[server].build(plan)
    rungs = [rung for rung in APPLICATION_RUNGS if app.answers_rung(rung.name)]
    assert UPSTREAM in rungs
    with deployment:
        sessions = sessions_of(deployment)
        for rung in rungs:
            verify_rung(deployment.base_url, rung)
        began = time.monotonic()
        assert http_get(deployment.base_url + UPSTREAM.path, timeout_s=10).status == 200
        assert (time.monotonic() - began) * 1000 >= DELAY_MS
    assert session_members(sessions) == []
