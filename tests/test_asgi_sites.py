"""The ASGI applications (starlette, fastapi, django-asgi) answer the same rungs as the WSGI
frameworks, verified by the same checks (tests/test_framework_sites.py): every rung by its
definition, the video page's comments in order, a comment written as the project's repository
writes one (short id, the ids registry, the audit history with its actor) and swept from the
page cache after its commit, and the bad requests' answers (404, 422, 400, 415).

Starlette and FastAPI run in-process on SQLite (the application built from its environment,
driven through httpx's ASGITransport with its lifespan, tests/asgi_client.py)."""

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from layerbench.app.app_config import DB_PATH_VARIABLE, AppConfig
from layerbench.app.asgi_app import ASGI_APP_VARIABLE
from layerbench.app.user_app import import_callable, parse_spec
from layerbench.frameworks.applications import APPLICATIONS, Application
from layerbench.lab.app_under_test import app_environment
from tests.asgi_client import ASGIClient, asgi_client
from tests.test_framework_sites import (
    check_bad_requests,
    check_page_comments,
    check_rungs,
    check_write_swept,
    sqlite_layout,
)

ASGI_APPLICATIONS = [app for app in APPLICATIONS.values() if app.interface == "asgi"]
# Those built by a factory from an AppConfig, so several can run in one test process (Django
# is configured once per process: it runs under a server, in tests/test_asgi_servers_sites.py).
IN_PROCESS = {"starlette", "fastapi"}


def factory_of(app: Application) -> Any:
    assert app.entry is not None
    module, _ = parse_spec(app.entry)
    return import_callable(module.rpartition(".")[0] + "." + app.name + "_app:create_app", [])


@contextmanager
def in_process(app: Application, config: AppConfig) -> Iterator[ASGIClient]:
    with asgi_client(factory_of(app)(config)) as client:
        yield client


def test_the_asgi_applications() -> None:
    assert [app.name for app in ASGI_APPLICATIONS] == ["starlette", "fastapi", "django-asgi"]
    for app in ASGI_APPLICATIONS:
        assert app_environment(app) == {ASGI_APP_VARIABLE: app.entry}


@pytest.mark.parametrize("name", sorted(IN_PROCESS))
def test_asgi_site_in_process_on_sqlite(
    name: str, tmp_path: Path, request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = APPLICATIONS[name]
    with contextmanager(sqlite_layout)(tmp_path, request) as data:
        for variable, value in {**data.environment, DB_PATH_VARIABLE: str(data.db_path)}.items():
            monkeypatch.setenv(variable, value)
        with in_process(app, AppConfig.from_env()) as client:
            check_rungs(app, client)
            check_page_comments(client)
            check_write_swept(app, client, data.database_url)
            check_bad_requests(client)
