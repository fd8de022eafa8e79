"""An application slow to import in every process but the first, under mod_wsgi: the tests
that a server is ready only once every process or child has loaded the application."""

from collections.abc import Callable
from pathlib import Path

from layerbench.servers.apache import MODULES_DIR
from layerbench.servers.mod_wsgi import APT_PACKAGE as MOD_WSGI_PACKAGE
from layerbench_sites.app.user_app import USER_APP_PATH_VARIABLE, USER_APP_VARIABLE
from tests.conftest import missing

IMPORT_S = 3.0
# Each request holds its process (one thread) this long, so that requests sent at once each
# reach a process of their own.
ANSWER_S = 0.5

SLOW_APP = f'''\
"""An application whose first process imports it at once, and every other one in {IMPORT_S} s
(as Zope's first process makes the database and the others load after); it answers its process
id, after {ANSWER_S} s."""

import os
import time

try:
    os.close(os.open(os.path.join(os.path.dirname(__file__), "first"), os.O_CREAT | os.O_EXCL))
except FileExistsError:
    time.sleep({IMPORT_S})


def application(environ, start_response):
    time.sleep({ANSWER_S})
    body = str(os.getpid()).encode()
    start_response("200 OK", [("Content-Type", "text/plain")])
    return [body]
'''


def slow_app_environment(
    workdir: Path, require_program: Callable[[str, str], Path]
) -> dict[str, str]:
    """The slow application written under ``workdir``, and the environment that makes it the
    application under test; skips (or fails, services required) without Apache's mod_wsgi."""
    require_program("apache2", "apache2")
    if not (MODULES_DIR / "mod_wsgi.so").exists():
        missing(f"mod_wsgi is not installed (apt install {MOD_WSGI_PACKAGE})")
    app_dir = workdir / "slow_app"
    app_dir.mkdir()
    app_dir.chmod(0o777)  # the server's account claims "first" in it
    (app_dir / "slow_app.py").write_text(SLOW_APP)
    (app_dir / "slow_app.py").chmod(0o644)
    return {USER_APP_VARIABLE: "slow_app:application", USER_APP_PATH_VARIABLE: str(app_dir)}
