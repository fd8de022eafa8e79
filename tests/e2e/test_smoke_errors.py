"""``layerbench smoke``'s exit statuses: a mistake (a module or name mistyped, a bad setting, a
URL that does not answer 2xx, a server that does not start) exits 2 with one line naming it;
1 is kept for a regression. The application is imported in a child process, before any server
starts."""

import os
import sys
from pathlib import Path

import pytest

from layerbench_sites.app.import_check import check_importable
from tests.cli_lines import said
from tests.smoke_runs import SMOKE_APPS, shop, smoke_here


@pytest.mark.parametrize(
    ("app", "message"),
    [
        ("shop.wsgix:application", "cannot import shop.wsgix: No module named 'shop.wsgix'"),
        ("shop.wsgi:applicaton", "module shop.wsgi has no attribute 'applicaton'"),
        ("shop.wsgi:settings", "shop.wsgi:settings is not callable (it is a dict)"),
        ("shop.broken:application", "cannot import shop.broken: RuntimeError: SECRET_KEY is not"),
    ],
)
def test_an_application_that_cannot_be_loaded_exits_2_in_one_line(
    tmp_path: Path, app: str, message: str
) -> None:
    completed = smoke_here(*shop(app, "--baseline", str(tmp_path / "b.json"), "--save"))
    assert completed.returncode == 2, completed.stderr
    assert said(completed.stderr).startswith(f"layerbench: error: {message}"), completed.stderr
    assert len(said(completed.stderr).splitlines()) == 1, completed.stderr
    assert not (tmp_path / "b.json").exists()


def test_the_application_is_imported_in_a_process_of_its_own(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    marker = tmp_path / "imported-by"
    monkeypatch.setenv("SHOP_IMPORT_MARKER", str(marker))
    check_importable("shop.marker:application", [str(SMOKE_APPS)])
    assert int(marker.read_text()) != os.getpid()
    assert "shop.marker" not in sys.modules
    assert str(SMOKE_APPS) not in sys.path


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--set", "gunicorn.wrokers=2"], "gunicorn has no setting wrokers"),
        (["--set", "uwsgi.processes=2"], "no server reads settings for uwsgi"),
        (["--set", "workers=0"], "gunicorn needs at least one worker"),
    ],
)
def test_a_wrong_setting_exits_2_before_any_server_starts(
    tmp_path: Path, args: list[str], message: str
) -> None:
    completed = smoke_here(*shop(*args, "--baseline", str(tmp_path / "b.json"), "--save"))
    assert completed.returncode == 2, completed.stderr
    assert said(completed.stderr).startswith("layerbench: error: ") and message in completed.stderr
    assert len(said(completed.stderr).splitlines()) == 1, completed.stderr


def test_a_server_that_does_not_start_exits_2_with_the_reason(tmp_path: Path) -> None:
    baseline = str(tmp_path / "b.json")
    completed = smoke_here(
        # One of gunicorn's own worker classes whose package is not installed (a dotted path
        # of one's own is refused before anything starts: gunicorn would import it).
        *shop("--set", "worker_class=gevent", "--baseline", baseline, "--save")
    )
    assert completed.returncode == 2, completed.stderr
    assert said(completed.stderr).startswith("layerbench: error: gunicorn did not start: it exited")
    # gunicorn's own words, from its log: gevent is not installed, or too old.
    assert "gevent" in completed.stderr.partition("last lines of its log:")[2]


@pytest.mark.parametrize(
    ("url", "status", "in_the_log"),
    [("/missing", 404, None), ("/broken", 500, "ZeroDivisionError: the shop's total")],
)
def test_a_url_that_does_not_answer_2xx_exits_2_naming_it(
    tmp_path: Path, url: str, status: int, in_the_log: str | None
) -> None:
    baseline = str(tmp_path / "b.json")
    completed = smoke_here(*shop("--url", "/", "--url", url, "--baseline", baseline, "--save"))
    assert completed.returncode == 2, completed.stderr
    first_line = said(completed.stderr).splitlines()[0]
    assert first_line.startswith("layerbench: error: http://"), completed.stderr
    assert f"{url} answered {status}" in first_line
    if in_the_log is None:
        assert len(said(completed.stderr).splitlines()) == 1, completed.stderr
    else:
        assert "last lines of the server's log" in first_line
        assert in_the_log in completed.stderr


@pytest.mark.parametrize("measure", ["requests", "instructions"])
def test_a_baseline_that_cannot_be_saved_is_refused_before_measuring(
    tmp_path: Path, measure: str
) -> None:
    """--save to a directory that is not there: refused in one line before the application is
    measured, not after a whole measurement (nothing measured: no table, no saved line)."""
    baseline = tmp_path / "missing" / "b.json"
    completed = smoke_here(*shop("--baseline", str(baseline), "--save", "--measure", measure))
    assert completed.returncode == 2, completed.stderr
    assert said(completed.stderr) == (
        f"layerbench: error: cannot write the baseline to {baseline}: "
        f"{baseline.parent} is not a writable directory\n"
    )
    assert completed.stdout == ""
    assert not baseline.parent.exists()
