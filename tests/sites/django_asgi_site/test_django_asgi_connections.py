"""django-asgi on PostgreSQL keeps its database connections bounded. Under ASGI each request's
ORM work runs on a thread of its own, and Django keeps a persistent connection per thread: with
the WSGI site's CONN_MAX_AGE=None they piled up, one per request (seen failing: 98 connections
from one worker after 250 requests). Its settings take Django's pool instead, at most
POOL_MAX_SIZE connections per database alias per process."""

import dataclasses
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import psycopg
import pytest

from layerbench.rungs.applications import APPLICATIONS
from layerbench_sites.frameworks.django_asgi_site.settings import POOL_MAX_SIZE
from tests.sites.frameworks.test_asgi_sites_served import served
from tests.sites.frameworks.test_framework_sites import LAYOUTS

REQUESTS = 300
CONCURRENT = 20
# The site's database and the rung data's (the same PostgreSQL database here), one process.
ALIASES = 2


def connections_to(url: str) -> int:
    with psycopg.connect(url) as connection:
        query = (
            "SELECT count(*) FROM pg_stat_activity"
            " WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )
        row = connection.execute(query).fetchone()
        assert row is not None
        return int(row[0])


def test_django_asgi_keeps_its_postgres_connections_bounded(
    workdir: Path, request: pytest.FixtureRequest
) -> None:
    app = APPLICATIONS["django-asgi"]
    (workdir / "data").mkdir()
    with LAYOUTS["postgres-memcached"](workdir / "data", request) as layout:
        data = dataclasses.replace(layout, workers=1)
        upstream = "http://127.0.0.1:9/delay/20"  # never asked
        with served("uvicorn", app, workdir, data, upstream) as client:
            with ThreadPoolExecutor(CONCURRENT) as pool:
                asked = [
                    pool.submit(client.request, "GET", "/ladder/page") for _ in range(REQUESTS)
                ]
                statuses = {answer.result().status for answer in asked}
            assert statuses == {200}
            assert connections_to(data.database_url) <= ALIASES * POOL_MAX_SIZE
