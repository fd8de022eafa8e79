"""The Zope application on RelStorage (``--set zope.storage=relstorage-postgres`` or
``relstorage-mariadb``, as ``ZOPE`` declares it; :mod:`layerbench.lab.app_storage`): under
gunicorn with two workers, each opening RelStorage on the database, every rung it answers is
verified and the ZODB's objects are in the database's tables (no ZEO server, no FileStorage); a
storage that is not one of the three is refused in one line before anything starts."""

from pathlib import Path

import psycopg
import pytest

from layerbench.errors import ConfigError
from layerbench.lab.app_storage import refuse_storage_outside_ladder, storage_services
from layerbench.lab.server_check import check_server
from layerbench.rungs.applications import BARE, ZOPE
from layerbench.services.mariadb import connect_mariadb
from layerbench_sites.app.ladder_data import prepare_app_data
from layerbench_sites.frameworks.zope_site.storage import (
    DEFAULT_FILE_NAME,
    RELSTORAGE_URL_VARIABLE,
    STORAGE_VARIABLE,
)
from tests.datalayer_backends import empty_mariadb_database, empty_postgres_database
from tests.sites.zope_site.test_zope_app import gunicorn, verify_rungs


def serve_on_relstorage(tmp_path: Path, storage: str, url: str) -> None:
    data = prepare_app_data(tmp_path / "data")
    environment = {STORAGE_VARIABLE: storage, RELSTORAGE_URL_VARIABLE: url, **data.environment}
    with gunicorn(tmp_path, data.db_path, environment, workers=2) as server:
        for _ in range(2):
            verify_rungs(server)
    assert not (data.db_path.parent / DEFAULT_FILE_NAME).exists()


def test_zope_answers_its_rungs_on_relstorage_postgres(tmp_path: Path, postgres_url: str) -> None:
    url, drop = empty_postgres_database(postgres_url)
    try:
        serve_on_relstorage(tmp_path, "relstorage-postgres", url)
        with psycopg.connect(url) as connection:
            row = connection.execute("SELECT count(*) FROM object_state").fetchone()
        assert row is not None and row[0] > 10
    finally:
        drop()


def test_zope_answers_its_rungs_on_relstorage_mariadb(tmp_path: Path, mariadb_url: str) -> None:
    url, drop = empty_mariadb_database(mariadb_url)
    try:
        serve_on_relstorage(tmp_path, "relstorage-mariadb", url)
        with connect_mariadb(url) as connection, connection.cursor() as cursor:
            cursor.execute("SELECT count(*) FROM object_state")
            row = cursor.fetchone()
        assert row is not None and row[0] > 10
    finally:
        drop()


def test_a_storage_that_is_not_one_of_the_three_is_refused() -> None:
    with pytest.raises(ConfigError, match=r"^zope.storage is one of filestorage, relstorage-p"):
        check_server("gunicorn", {"zope": {"storage": "zeo"}})


def test_the_ladder_starts_the_storage_s_database_only_for_zope() -> None:
    book = {"zope": {"storage": "relstorage-mariadb"}}
    assert storage_services((BARE, ZOPE), book) == ("mariadb",)
    assert storage_services((BARE,), book) == ()
    assert storage_services((ZOPE,), {}) == ()


def test_a_matrix_refuses_relstorage_it_would_not_start() -> None:
    with pytest.raises(ConfigError, match=r"^zope.storage=relstorage-postgres is a setting of la"):
        refuse_storage_outside_ladder({"zope": {"storage": "relstorage-postgres"}}, "matrix")
    refuse_storage_outside_ladder({"zope": {"storage": "filestorage"}}, "matrix")
