"""``--set site.database``: the demo site's database in a ladder run (lab/site_database.py)."""

import subprocess
import sys
from pathlib import Path

import pytest

from layerbench.errors import ConfigError
from layerbench.lab.site_database import site_services, site_url

MARIADB = {"site": {"database": "mariadb"}}


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
        [sys.executable, "-m", "layerbench.cli", "ladder", "--set", "site.database=oracle"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        check=False,
        timeout=60,
    )
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == (
        "layerbench: error: site.database is one of default, mariadb, not 'oracle'\n"
    )
    assert list(tmp_path.iterdir()) == []
