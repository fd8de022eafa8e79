"""mod_python's children import every module a request looks up as they start (PythonImport),
not on their first requests (issue 32, item 21).

mod_python's ``import_module`` takes a module it finds in ``sys.modules`` as imported, and a
module is there from the start of its import: requests arriving at once on the threads of a fresh
child, while one of them was still importing mod_python-wsgi's handler, found it half-imported,
"module '…/mod_python_wsgi_handler.py' contains no 'handler'", a 500 (29 of 5,000 in CI's
500-connection test, one run in a few). Here the handler takes a second to import, so that a
child importing it on its first requests answers some of them from the half-imported module in
every run (the readiness probe's, 5 runs of 5 before), not one run in a few."""

import json
import subprocess
from collections.abc import Callable
from pathlib import Path

from layerbench.servers.apache import MODULES_DIR, ApacheSettings
from layerbench.servers.mod_python import APT_PACKAGE, WSGI_HANDLER_MODULE, ModPythonWsgi
from tests.adapter_plan import plan_for
from tests.conftest import missing

IMPORT_S = 1.0
SLOW_HANDLER_MODULE = "slow_handler"
SLOW_HANDLER = f'''\
"""mod_python-wsgi's handler, {IMPORT_S} s to import (a first import on a busy machine)."""

import time

time.sleep({IMPORT_S})

from {WSGI_HANDLER_MODULE} import handler  # noqa: E402,F401
'''


class SlowHandlerWsgi(ModPythonWsgi):
    """mod_python-wsgi with a handler module that is slow to import."""

    handler_module = SLOW_HANDLER_MODULE

    def prepare(self) -> None:
        # The work directory is on the children's path (python_path).
        path = self.workdir / f"{SLOW_HANDLER_MODULE}.py"
        path.write_text(SLOW_HANDLER)
        path.chmod(0o644)
        super().prepare()


def test_a_fresh_child_answers_no_request_before_its_handler_is_imported(
    workdir: Path, require_program: Callable[[str, str], Path], load_binary: Path
) -> None:
    require_program("apache2", "apache2")
    if not (MODULES_DIR / "mod_python.so").exists():
        missing(f"mod_python is not installed (apt install {APT_PACKAGE})")
    plan = plan_for(workdir)
    server = SlowHandlerWsgi(plan.workdir, plan.port, plan.app(), ApacheSettings())
    with server:
        completed = subprocess.run(
            [str(load_binary), "-q", "-n", "500", "-c", "100", "-k", "-s", "20",
             "--json", "-", server.base_url + "/ladder/string"],
            capture_output=True, text=True, timeout=120, check=False,
        )  # fmt: skip
        log = server.log_path.read_text(errors="replace")
    assert completed.returncode == 0, completed.stderr
    report = json.loads(completed.stdout)
    assert report["status_counts"] == {"200": 500}, log[-2000:]
    # Not one request, the readiness probe's included, met the half-imported handler.
    assert "contains no 'handler'" not in log
