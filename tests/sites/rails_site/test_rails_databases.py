"""The Rails application on the server databases (wide: each layout boots Rails under Passenger
once more): on PostgreSQL with its pages in memcached (``caches_action``, shared by the Ruby
processes) and on MariaDB with its pages as files in ``public/``. The same checks as the
Python framework sites' (tests/sites/frameworks/test_framework_sites.py): every rung by its
definition, the page's comments in order, and a comment written is the repository's rows and on the
page at once, from every process."""

from dataclasses import replace
from pathlib import Path

import pytest

from layerbench.errors import MissingPackageError
from layerbench.proc.ports import free_port
from layerbench.rungs.applications import RAILS
from layerbench.servers.adapters import ADAPTERS, ServerPlan
from layerbench_sites.app.app_config import CACHE_URL_VARIABLE
from tests.app_server import Client
from tests.conftest import missing
from tests.sites.frameworks.test_framework_sites import (
    LAYOUTS,
    check_page_comments,
    check_rungs,
    check_write_swept,
)

pytestmark = pytest.mark.wide


@pytest.mark.parametrize("layout", ["postgres-memcached", "mariadb-redis"])
def test_rails_site_on_a_server_database(
    layout: str, workdir: Path, request: pytest.FixtureRequest
) -> None:
    with LAYOUTS[layout](workdir, request) as layout_data:
        environment = dict(layout_data.environment)
        if environment.get(CACHE_URL_VARIABLE, "").startswith("redis://"):
            # Rails keeps its pages in public/ or in memcached, not in Redis.
            del environment[CACHE_URL_VARIABLE]
        data = replace(layout_data, environment=environment)
        plan = ServerPlan(
            workdir=workdir / "passenger",
            port=free_port(),
            db_path=data.db_path,
            static_files={},
            book={"passenger": {"pool_size": "2", "min_instances": "2"}},
            app_environment=data.environment,
        )
        try:
            server = ADAPTERS["passenger"].build(plan)
        except MissingPackageError as error:
            missing(str(error))
            raise AssertionError("unreachable") from error
        with server:
            client = Client(int(server.base_url.rsplit(":", 1)[1]))
            check_rungs(RAILS, client)
            check_page_comments(client)
            check_write_swept(RAILS, client, data.database_url)
