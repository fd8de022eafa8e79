"""A mistyped choice is answered with the nearest one, in one line, exit 2 (words.did_you_mean,
difflib's ratio): every choice option, servers, applications, rungs, published experiments,
services and --set's sections, keys and values; one near none keeps the list of them."""

import subprocess
import sys

import pytest

from layerbench.words import did_you_mean, nearest
from tests.cli_lines import said

COMMAND = (sys.executable, "-m", "layerbench.cli")
SHORT = ["-d", "0.1", "--repeats", "1", "--json", "/dev/null"]


def test_the_nearest_choice_or_the_list() -> None:
    servers = ["gunicorn", "gunicorn-gthread", "uwsgi", "waitress"]
    assert nearest("gunicorm", servers) == "gunicorn"
    assert nearest("zzz", servers) is None
    assert did_you_mean("unknown server 'gunicorm'", "gunicorm", servers) == (
        "unknown server 'gunicorm'; did you mean gunicorn?"
    )
    assert did_you_mean("unknown server 'zzz'", "zzz", servers) == (
        "unknown server 'zzz'; one of: gunicorn, gunicorn-gthread, uwsgi, waitress"
    )
    assert (
        did_you_mean("x is one of a, b, not 'q'", "q", ["a", "b"], "")
        == "x is one of a, b, not 'q'"
    )


@pytest.mark.parametrize(
    ("args", "nearest_one"),
    [
        (["ladder", *SHORT, "--server", "gunicorm"], "gunicorn"),
        (["matrix", "--servers", "gunicorm", "-c", "1"], "gunicorn"),
        (["matrix", "--servers", "gunicorn", "--rung", "strng"], "string"),
        (["ladder", *SHORT, "--app", "djnago"], "django"),
        (["ladder", *SHORT, "--apps", "bare,flsk"], "flask"),
        (["ladder", *SHORT, "--rungs", "strng"], "string"),
        (["replicate", "zope-pasta"], "zope-paste"),
        (["services", "up", "memcachd"], "memcached"),
        (["ladder", *SHORT, "--set", "gunicorn.wrokers=4"], "workers"),
        (["ladder", *SHORT, "--set", "gunicron.workers=4"], "gunicorn"),
        (["ladder", *SHORT, "--set", "site.database=mariadbb"], "mariadb"),
        (["ladr"], "ladder"),
    ],
)
def test_a_mistyped_choice_gets_the_nearest_in_one_line(args: list[str], nearest_one: str) -> None:
    done = subprocess.run(
        [*COMMAND, *args], capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode == 2, done.stderr
    lines = said(done.stderr).splitlines()
    assert len(lines) == 1, done.stderr
    assert f"did you mean {nearest_one}?" in lines[0], lines[0]
