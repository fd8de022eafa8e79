"""``layerbench cost`` and ``ladder --instructions`` count on the data the ladder's settings
choose: ``--set site.database=mariadb`` puts the demo site on a throwaway MariaDB, ``--set
zope.storage=relstorage-postgres`` Zope's storage on PostgreSQL, started by the cost run itself,
each repeat on a database of its own. A setting a cost pass does not read (a server's) is
refused in one line, and so is any ``--set`` of ``smoke --measure instructions``, which calls
the user's application in-process on its own SQLite file."""

import io
import json
import signal
from collections.abc import Callable
from contextlib import redirect_stderr
from pathlib import Path

import pytest

from layerbench.cli.main import run
from layerbench.cost.ladder_cost import ladder_cost_options
from layerbench.services.postgres import PG_BIN
from tests.cli_lines import said
from tests.e2e.test_cost import cost
from tests.smoke_runs import shop, smoke_here

# Few requests, 2 repeats: enough to tell one database from another and the repeats apart.
QUICK = ["--requests", "5", "--warmup", "2", "--repeats", "2"]


def run_here(*args: str) -> tuple[int, str]:
    """The CLI's ``run`` in this process: its exit status and stderr."""
    stderr = io.StringIO()
    sigterm = signal.getsignal(signal.SIGTERM)
    try:
        with redirect_stderr(stderr):
            returncode = run(list(args))
    finally:
        signal.signal(signal.SIGTERM, sigterm)
    return returncode, stderr.getvalue()


def test_a_server_setting_is_refused_in_one_line() -> None:
    returncode, stderr = run_here("cost", "--set", "gunicorn.workers=4")
    assert returncode == 2
    assert stderr == (
        "layerbench: error: cost calls the application in-process, under no server: no "
        "setting of gunicorn is read; it reads site, zope, mariadb, postgres\n"
    )


def test_smoke_measure_instructions_refuses_a_setting(tmp_path: Path) -> None:
    baseline = tmp_path / "b.json"
    done = smoke_here(*shop("--measure", "instructions", "--baseline", str(baseline), "--save",
                            "--set", "site.database=mariadb"))  # fmt: skip
    assert done.returncode == 2, done.stdout + done.stderr
    assert said(done.stderr) == (
        "layerbench: error: --measure instructions calls the application in-process, under no "
        "server and on its own SQLite file: --set site.database=mariadb would not be "
        "measured; leave it out\n"
    )
    assert not baseline.exists()


def test_ladder_instructions_counts_on_the_ladders_data(
    require_program: Callable[[str, str], Path],
) -> None:
    """The ladder's book holds its server's settings too: the pass takes the data's only."""
    require_program("valgrind", "valgrind")  # the options are refused without it
    require_program("gcc", "gcc")
    book = {"site": {"database": "mariadb"}, "gunicorn": {"workers": "4"}}
    options = ladder_cost_options(False, ("bare",), ("static", "page"), book)
    assert options.settings == {"site": {"database": "mariadb"}}
    assert options.rungs == ("page",)


@pytest.mark.wide  # MariaDB and 3 processes under valgrind: about 60 s on a loaded machine
def test_the_site_on_mariadb_is_counted_there(
    require_program: Callable[[str, str], Path], tmp_path: Path
) -> None:
    require_program("valgrind", "valgrind")
    require_program("mariadbd", "mariadb-server")
    counted = {}
    for where, settings in (("sqlite", []), ("mariadb", ["--set", "site.database=mariadb"])):
        out = tmp_path / f"{where}.json"
        done = cost("--rungs", "page,write", *QUICK, *settings, "--json", str(out), cwd=tmp_path)
        assert done.returncode == 0, done.stderr
        counted[where] = json.loads(out.read_text())
    on_mariadb = counted["mariadb"]
    assert on_mariadb["options"]["settings"] == {"site": {"database": "mariadb"}}
    sqlite, mariadb = ({r["label"]: r for r in counted[w]["requests"]} for w in counted)
    # Another database, another driver: the page costs far more than on the SQLite file.
    assert (
        mariadb["page"]["median_instructions_per_request"]
        > 1.5 * (sqlite["page"]["median_instructions_per_request"])
    )
    # Each repeat seeded and wrote to a site of its own (one site for both: the second seeding
    # fails on the first's video), and both counted the same work.
    assert all(row["cv_percent"] < 1 for row in mariadb.values())


@pytest.mark.wide  # PostgreSQL and Zope under valgrind: about 60 s on a loaded machine
def test_zope_on_relstorage_is_counted_there(
    require_program: Callable[[str, str], Path], tmp_path: Path
) -> None:
    require_program("valgrind", "valgrind")
    require_program(f"{PG_BIN}/postgres", "postgresql")
    out = tmp_path / "zope.json"
    done = cost("--app", "zope", "--rungs", "string", *QUICK, "--set",
                "zope.storage=relstorage-postgres", "--json", str(out), cwd=tmp_path)  # fmt: skip
    assert done.returncode == 0, done.stderr
    document = json.loads(out.read_text())
    assert document["options"]["settings"] == {"zope": {"storage": "relstorage-postgres"}}
    (string,) = document["requests"]
    assert string["cv_percent"] < 1
