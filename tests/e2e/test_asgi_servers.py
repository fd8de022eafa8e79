"""The ASGI server adapters: each runs an ASGI application in exactly the processes its settings
ask for, with the event loop and HTTP parser they name (the loop as the application sees it,
the parser's module mapped into its workers: not taken from its command line); Ctrl-C leaves
nothing; and an application of the other interface is refused before anything starts, in one
line. (Every adapter serving its
rung, taking 500 connections and surviving a kill at any moment of its start: test_adapters.py
and test_kill_during_start.py, which run every adapter.)"""

import subprocess
import sys
import time
from pathlib import Path

import pytest

from layerbench.errors import ConfigError
from layerbench.ladder.options import LadderOptions
from layerbench.matrix.matrix_options import Column, MatrixOptions
from layerbench.proc.http_probe import http_get
from layerbench.rungs.applications import APPLICATIONS
from layerbench.rungs.definitions import HELLO, STRING
from layerbench.servers.adapters import ADAPTERS, ASGI
from tests.adapter_plan import plan_for
from tests.cli_lines import said
from tests.e2e.test_adapters import build, sessions_of
from tests.proc_scan import session_members

ASGI_SERVERS = [name for name, adapter in ADAPTERS.items() if ASGI in adapter.interfaces]
ASGI_APP = next(app.name for app in APPLICATIONS.values() if app.interface == ASGI)


def imported_by(marker: Path) -> set[int]:
    """The processes that imported the test's ASGI application."""
    return {int(pid) for pid in marker.read_text().split()} if marker.exists() else set()


def mapped(pid: int, fragment: str) -> bool:
    """Whether a file whose path contains ``fragment`` is mapped into process ``pid``."""
    return fragment in Path(f"/proc/{pid}/maps").read_text()


HTTPTOOLS = "/httptools/parser/parser."

# server, its settings, the processes that run the application, the event loop it runs on, and
# whether those processes have httptools' parser mapped (None: not the server's choice).
CASES = [
    ("uvicorn", {"workers": "3"}, 3, "uvloop", True),
    ("uvicorn", {"workers": "1", "loop": "asyncio", "http": "h11"}, 1, "asyncio", False),
    ("gunicorn-uvicorn", {"workers": "3"}, 3, "uvloop", True),
    ("gunicorn-uvicorn", {"workers": "1", "http": "h11"}, 1, "asyncio", False),
    ("hypercorn", {"workers": "3"}, 3, "uvloop", None),
    ("hypercorn", {"workers": "1", "worker_class": "asyncio"}, 1, "asyncio", None),
    ("granian-asgi", {"workers": "3"}, 3, "uvloop", None),
    ("granian-asgi", {"workers": "1", "loop": "asyncio"}, 1, "asyncio", None),
    ("daphne", {}, 1, "asyncio", None),  # Twisted's asyncio reactor
]


@pytest.mark.parametrize("case", CASES, ids=[f"{c[0]}-{c[2]}-{c[1]}" for c in CASES])
def test_asgi_server_runs_what_its_settings_say(
    case: tuple[str, dict[str, str], int, str, bool | None],
    workdir: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    name, settings, workers, loop, httptools = case
    marker = workdir / "imported"
    monkeypatch.setenv("STRING_ONLY_MARKER", str(marker))
    deployment = build(name, plan_for(workdir, {name: settings}))
    with deployment:
        response = http_get(deployment.base_url + STRING.path, timeout_s=10.0)
        assert (response.status, response.body) == (200, HELLO)
        headers = {key.lower(): value for key, value in response.headers.items()}
        assert headers["x-event-loop"] == loop
        # A worker imports the application as it starts; the server is ready at the first.
        deadline = time.monotonic() + 10
        while len(imported_by(marker)) < workers and time.monotonic() < deadline:
            time.sleep(0.05)
        time.sleep(0.2)  # and none more
        running = imported_by(marker)
        members = {pid for pid, _ in session_members(sessions_of(deployment))}
        assert len(running) == workers
        assert running <= members
        if httptools is not None:
            assert {mapped(pid, HTTPTOOLS) for pid in running} == {httptools}
    assert session_members(sessions_of(deployment)) == []


@pytest.mark.parametrize("name", ASGI_SERVERS)
def test_interrupted_asgi_server_leaves_no_process(name: str, workdir: Path) -> None:
    deployment = build(name, plan_for(workdir))
    with pytest.raises(KeyboardInterrupt), deployment:
        sessions = sessions_of(deployment)
        assert session_members(sessions)
        raise KeyboardInterrupt
    assert session_members(sessions) == []


def test_a_wsgi_application_under_an_asgi_server_is_refused() -> None:
    with pytest.raises(ConfigError, match=r"^uvicorn runs ASGI applications, and bare is a WSGI"):
        LadderOptions(server="uvicorn")
    column = Column.parse("daphne", {}, app="flask")
    with pytest.raises(ConfigError, match=r"^daphne runs ASGI applications, and flask is a WSGI"):
        MatrixOptions(columns=(column,))


def test_an_asgi_application_under_a_wsgi_server_is_refused_naming_those_that_run_it() -> None:
    with pytest.raises(ConfigError) as refused:
        LadderOptions(server="gunicorn", apps=(ASGI_APP,))
    message = str(refused.value)
    assert message.startswith(f"gunicorn runs WSGI applications, and {ASGI_APP} is an ASGI")
    assert message.endswith(": choose one of " + ", ".join(ASGI_SERVERS))
    column = Column.parse(f"mod_wsgi-daemon:app={ASGI_APP}", {})
    with pytest.raises(ConfigError, match=r"^mod_wsgi-daemon runs WSGI applications"):
        MatrixOptions(columns=(column,))


def test_static_servers_and_the_right_interface_pass() -> None:
    LadderOptions(server="granian-asgi", apps=(ASGI_APP,))
    columns = tuple(
        Column.parse(text, {})
        for text in ("nginx-static", f"uvicorn:app={ASGI_APP}", "gunicorn:app=flask")
    )
    MatrixOptions(columns=columns)


def test_the_refusal_is_one_line_and_exit_2_before_anything_starts(workdir: Path) -> None:
    completed = subprocess.run(
        [sys.executable, "-m", "layerbench.cli", "matrix", "--servers", "uvicorn,gunicorn",
         "--json", str(workdir / "m.json")],
        capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert completed.returncode == 2
    assert said(completed.stderr).count("\n") == 1
    assert said(completed.stderr).startswith("layerbench: error: uvicorn runs ASGI applications")
    assert not (workdir / "m.json").exists()
