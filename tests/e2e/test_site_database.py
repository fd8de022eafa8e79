"""``--set site.database``: the demo site's database in a ladder run (lab/site_database.py)."""

import subprocess
import sys
from pathlib import Path

import pytest

from layerbench.errors import ConfigError
from layerbench.lab.site_database import site_services, site_url
from layerbench.rungs.rung_data import PAGE_VIDEO_PRETTYID, PAGE_VIDEO_TITLE
from layerbench.rungs.seeding import seed_mariadb
from layerbench_sites.app.app_config import DATABASE_URL_VARIABLE, ServiceUrls
from layerbench_sites.app.ladder_data import SITE_FILE, prepare_app_data
from layerbench_sites.app.videos import Catalog
from layerbench_sites.datalayer.open_repository import open_repository
from tests.cli_lines import said
from tests.datalayer_backends import empty_mariadb_database

MARIADB = {"site": {"database": "mariadb"}}
LAYERBENCH = [sys.executable, "-m", "layerbench.cli"]
MATRIX = ["matrix", "--servers", "gunicorn", "--rung", "string", "-d", "0.5", "--repeats", "1"]


def test_mariadb_puts_the_site_on_the_runs_mariadb() -> None:
    assert site_services(MARIADB) == ("mariadb",)
    assert (
        site_url(MARIADB, {"mariadb": "mysql://u@127.0.0.1:1/d"}, {}) == "mysql://u@127.0.0.1:1/d"
    )


def test_the_default_leaves_the_site_where_it_was() -> None:
    assert site_services({}) == ()
    assert site_url({}, {"mariadb": "mysql://u@127.0.0.1:1/d"}, {}) is None


def test_mariadb_not_there_is_one_line() -> None:
    with pytest.raises(ConfigError, match=r"^site\.database=mariadb: install mariadb-server$"):
        site_url(MARIADB, {}, {"mariadb": "install mariadb-server"})


def test_an_unknown_database_is_refused_in_one_line(tmp_path: Path) -> None:
    done = subprocess.run(
        [*LAYERBENCH, "ladder", "--set", "site.database=oracle"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        check=False,
        timeout=60,
    )
    assert (done.returncode, done.stdout) == (2, "")
    assert said(done.stderr) == (
        "layerbench: error: site.database is one of default, mariadb, not 'oracle'\n"
    )
    assert list(tmp_path.iterdir()) == []


def test_the_site_is_seeded_on_the_mariadb_given(mariadb_url: str, tmp_path: Path) -> None:
    url, drop = empty_mariadb_database(mariadb_url)
    try:
        seed_mariadb(url)  # the rung row, as the ladder's services seed MariaDB first
        data = prepare_app_data(tmp_path, ServiceUrls(mariadb=url), site_url=url)
        assert data.environment[DATABASE_URL_VARIABLE] == url
        assert not (tmp_path / SITE_FILE).exists()
        assert Catalog(open_repository(url)).video(PAGE_VIDEO_PRETTYID)["title"] == PAGE_VIDEO_TITLE
    finally:
        drop()


def test_the_matrix_refuses_it_in_one_line(tmp_path: Path) -> None:
    done = subprocess.run(
        [*LAYERBENCH, *MATRIX, "--set", "site.database=mariadb"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        check=False,
    )
    assert (done.returncode, done.stdout) == (2, "")
    assert said(done.stderr) == (
        "layerbench: error: site.database is a setting of layerbench ladder; layerbench matrix "
        "starts no database for the site\n"
    )
