"""The ASGI applications under real ASGI servers (the server adapters, started as the lab
starts them: a process group, loaded through ``layerbench_sites.app.asgi_entry`` with the
application's environment), answering every rung they answer, verified by the same checks as
the WSGI frameworks (tests/sites/frameworks/test_framework_sites.py): the page's comments in order,
the write's rows and its sweep seen by every worker. On SQLite (in-process page cache, one worker),
PostgreSQL + memcached (psycopg's async mode, pymemcache in a thread, two workers) and MariaDB +
Redis (aiomysql, redis.asyncio, two workers). The default run takes one pairing of each
application and layout under uvicorn; ``wide`` takes every ASGI server with every ASGI
application (make test-wide)."""

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from layerbench.errors import MissingPackageError
from layerbench.lab.app_under_test import app_environment
from layerbench.proc.ports import free_port
from layerbench.rungs.applications import APPLICATIONS, Application
from layerbench.servers.adapters import ADAPTERS, ASGI, ServerPlan
from layerbench_sites.app.app_config import SERVICE_URL_VARIABLES
from tests.app_server import Client
from tests.conftest import missing
from tests.sites.frameworks.test_framework_sites import (
    LAYOUTS,
    SiteData,
    check_bad_requests,
    check_page_comments,
    check_rungs,
    check_write_swept,
)
from tests.upstream_fixture import upstream_url  # noqa: F401 (a fixture)

ASGI_SERVERS = [name for name, adapter in ADAPTERS.items() if ASGI in adapter.interfaces]
ASGI_APPS = [app.name for app in APPLICATIONS.values() if app.interface == ASGI]
# Servers that run one process, whatever the layout asks.
ONE_PROCESS = {"daphne"}

# (server, application, layout) of the default run: each application and each layout once.
DEFAULT = [
    ("uvicorn", "starlette", "sqlite"),
    ("uvicorn", "fastapi", "postgres-memcached"),
    ("uvicorn", "django-asgi", "mariadb-redis"),
]
WIDE = [
    pytest.param(server, app, layout, marks=pytest.mark.wide)
    for server in ASGI_SERVERS
    for app in ASGI_APPS
    for layout in LAYOUTS
    if (server, app, layout) not in DEFAULT and (server == "uvicorn" or layout == "sqlite")
]


@contextmanager
def served(
    server: str, app: Application, workdir: Path, data: SiteData, upstream: str
) -> Iterator[Client]:
    workdir.chmod(0o711)
    settings = {} if server in ONE_PROCESS else {"workers": str(data.workers)}
    plan = ServerPlan(
        workdir=workdir / "server",
        port=free_port(),
        db_path=data.db_path,
        static_files={},
        book={server: settings},
        app_environment={
            **app_environment(app),
            **data.environment,
            SERVICE_URL_VARIABLES["upstream"]: upstream,
        },
    )
    try:
        deployment = ADAPTERS[server].build(plan)
    except MissingPackageError as error:
        missing(str(error))
        raise AssertionError("unreachable") from error
    with deployment:
        yield Client(plan.port)


@pytest.mark.parametrize(("server", "name", "layout"), [*DEFAULT, *WIDE])
def test_asgi_site_served(
    server: str,
    name: str,
    layout: str,
    workdir: Path,
    request: pytest.FixtureRequest,
) -> None:
    app = APPLICATIONS[name]
    (workdir / "data").mkdir()
    with (
        LAYOUTS[layout](workdir / "data", request) as data,
        served(server, app, workdir, data, request.getfixturevalue("upstream_url")) as client,
    ):
        check_rungs(app, client)
        check_page_comments(client)
        check_write_swept(app, client, data.database_url)
        if layout == "sqlite":
            check_bad_requests(client)
