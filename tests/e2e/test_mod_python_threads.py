"""Django under mod_python's WSGI handler with several threads per Apache child (issue 21).

Debian 12's mod_python pools its Python thread states without clearing them, so a
``threading.local`` (Django's connections) followed the pooled thread state onto another Apache
thread and Django refused the connection: HTTP 500, "DatabaseWrapper objects created in a thread
can only be used in that same thread" (3,558 of 3,558 at c=10 before the handler kept each
thread's locals with its thread, :mod:`layerbench.servers.mod_python_thread_locals`)."""

import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

from layerbench.servers.apache import MODULES_DIR
from layerbench.servers.mod_python import APT_PACKAGE
from tests.conftest import missing

LAYERBENCH = [sys.executable, "-m", "layerbench.cli"]


def test_django_orm_under_mod_python_wsgi_with_threads_answers_every_request(
    tmp_path: Path, require_program: Callable[[str, str], Path], load_binary: Path
) -> None:
    require_program("apache2", "apache2")
    if not (MODULES_DIR / "mod_python.so").exists():
        missing(f"mod_python is not installed (apt install {APT_PACKAGE})")
    # One child of 25 threads (the event MPM's default) serves the 10 connections.
    column = "mod_python-wsgi:app=django:apache.threads_per_child=25:apache.start_servers=1"
    completed = subprocess.run(
        [*LAYERBENCH, "matrix", "--servers", column, "--rung", "orm", "--concurrency", "10",
         "-d", "1", "--warmup", "0.2", "--repeats", "1", "--json", "out.json"],
        capture_output=True, text=True, cwd=tmp_path, timeout=180, check=False,
    )  # fmt: skip
    document = json.loads((tmp_path / "out.json").read_text())
    [cell] = document["cells"]
    assert document["columns"][0]["settings"]["apache"]["threads_per_child"] == 25
    assert cell["status"] == "ok", cell["message"]
    assert cell["errors"] == 0, cell["errors_by_kind"]
    assert cell["requests_per_s"] > 0
    assert completed.returncode == 0, completed.stderr
