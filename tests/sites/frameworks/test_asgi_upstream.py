"""The ASGI applications' upstream rung under uvicorn (one worker, one event loop): the GET of
the delaying server (started by the project's service, on loopback) answers the rung, and it
is awaited, not waited for: CONCURRENT requests at once, each waiting DELAY_MS on the
upstream, all end in about one delay, where a call that blocked the loop would take them one
after the other (CONCURRENT x DELAY_MS). Without the URL the rung is not routed (404; checked
in-process)."""

import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from layerbench.lab.app_under_test import app_environment
from layerbench.proc.ports import free_port
from layerbench.rungs.applications import APPLICATIONS
from layerbench.rungs.definitions import UPSTREAM
from layerbench.rungs.sqlite_file import create_seeded_database
from layerbench.servers.adapters import ADAPTERS, ServerPlan
from layerbench.servers.deployment import Deployment
from layerbench.services.upstream import UpstreamService
from layerbench_sites.app.app_config import SERVICE_URL_VARIABLES, AppConfig
from layerbench_sites.frameworks.starlette_site.app import create_app
from tests.app_server import Client
from tests.asgi_client import asgi_client

DELAY_MS = 200
CONCURRENT = 20
# Serially they would take CONCURRENT x DELAY_MS = 4 s; awaited, one delay and the overheads.
AT_MOST_S = CONCURRENT * DELAY_MS / 1000 / 4
ASGI_APPS = [app.name for app in APPLICATIONS.values() if app.interface == "asgi"]


@pytest.fixture(scope="module")
def slow_upstream_url() -> Iterator[str]:
    with UpstreamService(ms=DELAY_MS) as service:
        yield service.url


def serve(name: str, workdir: Path, environment: dict[str, str]) -> tuple[Deployment, Client]:
    workdir.chmod(0o711)
    (workdir / "data").mkdir()
    plan = ServerPlan(
        workdir=workdir / "server",
        port=free_port(),
        db_path=create_seeded_database(workdir / "data"),
        static_files={},
        book={"uvicorn": {"workers": "1"}},
        app_environment={**app_environment(APPLICATIONS[name]), **environment},
    )
    return ADAPTERS["uvicorn"].build(plan), Client(plan.port)


@pytest.mark.parametrize("name", ASGI_APPS)
def test_the_upstream_rung_is_awaited(name: str, workdir: Path, slow_upstream_url: str) -> None:
    environment = {SERVICE_URL_VARIABLES["upstream"]: slow_upstream_url}
    deployment, client = serve(name, workdir, environment)
    with deployment:
        first = client.request("GET", UPSTREAM.path)
        assert UPSTREAM.accepts(first.status, first.body), (first.status, first.body)
        started = time.monotonic()
        with ThreadPoolExecutor(CONCURRENT) as pool:
            replies = list(
                pool.map(lambda _: client.request("GET", UPSTREAM.path), range(CONCURRENT))
            )
        took_s = time.monotonic() - started
        assert all(UPSTREAM.accepts(r.status, r.body) for r in replies)
        assert DELAY_MS / 1000 <= took_s < AT_MOST_S, took_s


def test_without_its_url_the_upstream_rung_is_not_routed(tmp_path: Path) -> None:
    config = AppConfig(db_path=create_seeded_database(tmp_path))
    with asgi_client(create_app(config)) as client:
        assert client.request("GET", UPSTREAM.path).status == 404
