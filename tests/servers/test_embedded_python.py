"""The servers that embed Debian's Python (Apache's modules, uWSGI's plugin) work whatever the
caller's PATH: with a virtualenv's bin first on it (an activated ``.venv``), mod_python once
could not import itself."""

import os
import sys
from pathlib import Path

import pytest

from layerbench.proc.http_probe import http_get
from layerbench.rungs.rung_data import HELLO_VALUE
from layerbench.servers.adapters import ADAPTERS, Serves
from tests.adapter_plan import STATIC_BODY, STATIC_FILE, plan_for
from tests.e2e.test_adapters import build

APACHE_AND_UWSGI = [
    "apache-static",
    "mod_wsgi-embedded",
    "mod_wsgi-daemon",
    "mod_python",
    "mod_python-wsgi",
    "uwsgi",
    "uwsgi-nginx",
]
VENV_BIN = Path(sys.executable).parent


@pytest.mark.parametrize("name", APACHE_AND_UWSGI)
def test_serves_with_the_virtualenv_first_on_path(
    name: str, workdir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert (VENV_BIN.parent / "pyvenv.cfg").is_file(), "the tests run in a virtualenv"
    monkeypatch.setenv("PATH", f"{VENV_BIN}{os.pathsep}{os.environ['PATH']}")
    monkeypatch.setenv("VIRTUAL_ENV", str(VENV_BIN.parent))
    deployment = build(name, plan_for(workdir))
    if ADAPTERS[name].serves is Serves.STATIC:
        path, body = "/" + STATIC_FILE, STATIC_BODY
    else:
        path, body = "/ladder/string", HELLO_VALUE.encode()
    with deployment:
        response = http_get(deployment.base_url + path, timeout_s=10.0)
    assert (response.status, response.body) == (200, body)
