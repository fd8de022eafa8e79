"""The ASGI applications (starlette, fastapi, django-asgi) answer the same rungs as the WSGI
frameworks, verified by the same checks (tests/sites/frameworks/test_framework_sites.py): every rung
by its definition, the video page's comments in order, a comment written as the project's repository
writes one (short id, the ids registry, the audit history with its actor) and swept from the
page cache after its commit, and the bad requests' answers (404, 422, 400, 415).

Each runs in-process on SQLite, driven through httpx's ASGITransport with its lifespan
(tests/asgi_client.py): Starlette and FastAPI built by their factories from the environment,
Django through its entry module (Django is configured once per process: this is the one
in-process Django of the test run; under a real server it runs in its own process)."""

from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from layerbench.lab.app_under_test import app_environment
from layerbench.rungs.applications import APPLICATIONS, Application
from layerbench_sites.app.app_config import DB_PATH_VARIABLE, SERVICE_URL_VARIABLES, AppConfig
from layerbench_sites.app.asgi_app import ASGI_APP_VARIABLE
from layerbench_sites.app.user_app import import_callable
from tests.asgi_client import asgi_client
from tests.sites.frameworks.test_framework_sites import (
    check_bad_requests,
    check_page_comments,
    check_rungs,
    check_write_swept,
    sqlite_layout,
)
from tests.upstream_fixture import upstream_url  # noqa: F401 (a fixture)

ASGI_APPLICATIONS = [app for app in APPLICATIONS.values() if app.interface == "asgi"]
# Those built by a factory from an AppConfig, so that each test has its own.
FACTORIES = {
    "starlette": "layerbench_sites.frameworks.starlette_site.app:create_app",
    "fastapi": "layerbench_sites.frameworks.fastapi_site.main:create_app",
}


def built(app: Application) -> Any:
    """The application configured from the environment, as a server's import makes it."""
    if app.name in FACTORIES:
        return import_callable(FACTORIES[app.name], [])(AppConfig.from_env())
    assert app.entry is not None
    return import_callable(app.entry, [])


def test_the_asgi_applications() -> None:
    assert [app.name for app in ASGI_APPLICATIONS] == ["starlette", "fastapi", "django-asgi"]
    for app in ASGI_APPLICATIONS:
        assert app_environment(app) == {ASGI_APP_VARIABLE: app.entry}


@pytest.mark.parametrize("name", ["starlette", "fastapi", "django-asgi"])
def test_asgi_site_in_process_on_sqlite(
    name: str,
    tmp_path: Path,
    request: pytest.FixtureRequest,
    monkeypatch: pytest.MonkeyPatch,
    upstream_url: str,  # noqa: F811 (the fixture)
) -> None:
    app = APPLICATIONS[name]
    with contextmanager(sqlite_layout)(tmp_path, request) as data:
        environment = {
            **data.environment,
            DB_PATH_VARIABLE: str(data.db_path),
            SERVICE_URL_VARIABLES["upstream"]: upstream_url,
        }
        for variable, value in environment.items():
            monkeypatch.setenv(variable, value)
        with asgi_client(built(app)) as client:
            check_rungs(app, client)
            check_page_comments(client)
            check_write_swept(app, client, data.database_url)
            check_bad_requests(client)
