"""Apache is ready once every child it runs after its start has loaded the application. With
StartServers below MinSpareServers (prefork's 2 against 5 by default) Apache forks the missing
children in its first seconds, and more while they import (a child importing is not idle to
it); each imported the application (mod_wsgi's WSGIImportScript) on the server's CPUs while the
first cell ran: prefork's c=1 string cell read 457 req/s against event's 2,715."""

import time
from collections.abc import Callable
from pathlib import Path

import pytest

from layerbench.errors import ServerStartError
from layerbench.proc.ports import free_port
from layerbench.servers.adapters import ServerPlan, find_adapter
from layerbench.servers.apache import ApacheSettings
from layerbench.servers.deployment import Deployment
from layerbench.servers.loaded_workers import LOADED_DIR_NAME
from layerbench.servers.managed_server import ManagedServer
from layerbench_sites.app.user_app import USER_APP_PATH_VARIABLE
from tests.proc_scan import session_members
from tests.slow_app import slow_app_environment


def test_prefork_keeps_its_min_spare_servers_from_the_start() -> None:
    assert ApacheSettings(mpm="prefork").children_at_start() == 5  # StartServers 2 raised to 5
    assert ApacheSettings(mpm="prefork", start_servers=7).children_at_start() == 7
    assert ApacheSettings(mpm="prefork", min_spare_servers=8, max_request_workers=6)\
        .children_at_start() == 6  # fmt: skip


def test_threaded_mpms_keep_their_min_spare_threads_from_the_start() -> None:
    # 60 idle threads need 3 children of 25, whatever StartServers says.
    assert ApacheSettings(min_spare_threads=60, max_spare_threads=100).children_at_start() == 3
    assert ApacheSettings(mpm="worker", start_servers=1).children_at_start() == 1


def prefork_plan(workdir: Path, environment: dict[str, str]) -> ServerPlan:
    """Apache's prefork MPM, its defaults otherwise, serving the application ``environment``
    names."""
    (workdir / "data").mkdir()
    return ServerPlan(
        workdir / "server",
        free_port(),
        workdir / "data" / "app.sqlite3",
        {},
        {"apache": {"mpm": "prefork"}},
        app_environment=environment,
    )


def test_mod_wsgi_prefork_is_ready_once_every_child_has_loaded_the_application(
    workdir: Path, require_program: Callable[[str, str], Path]
) -> None:
    environment = slow_app_environment(workdir, require_program)
    plan = prefork_plan(workdir, environment)
    deployment = find_adapter("mod_wsgi-embedded").build(plan)
    with deployment:
        (session,) = deployment.roles()["server"]
        children = {pid for pid, _ in session_members({session}) if pid != session}
        loaded = {int(entry.name) for entry in (plan.workdir / LOADED_DIR_NAME).iterdir()}
    importing = sorted(children - loaded)
    assert not importing, f"ready with children {importing} still importing the application"
    assert len(children) >= 5, children  # MinSpareServers, or more forked meanwhile


# Every child after the first imports the application for WORK_S of CPU-bound work, longer than
# the start timeout it is given: a loaded machine's import (14 s a child, five of them on two
# cores at a load average of 26, against a timeout of 20 s).
WORKING_APP = """\
import os, time

try:
    os.close(os.open(os.path.join(os.path.dirname(__file__), "first"), os.O_CREAT | os.O_EXCL))
except FileExistsError:
    until = time.monotonic() + {work_s}
    while time.monotonic() < until:
        {work}


def application(environ, start_response):
    start_response("200 OK", [("Content-Type", "text/plain")])
    return [str(os.getpid()).encode()]
"""
# The start's window without progress. Progress is the tree's CPU (0.5 s of it, read each
# second), so a window is crossed only when the four importing children get less than 0.5 s
# of CPU in 7 s together: under 7 % of one core of the two, which they are given while fewer
# than about 110 other runnable processes share the machine. 4 s (17 %: fewer than about 43)
# was crossed at a load average of 48.
TIMEOUT_S = 8.0
# The Apache adapters whose prefork children load the application (both failed so on CI).
# What either test proves is the readiness loop's, over Apache's process tree, the same for
# both: make test runs each test with one of them (the other's stall also shows mod_python's
# children announcing their load), make test-wide with both.
WORKING_ADAPTERS = ["mod_wsgi-embedded", pytest.param("mod_python-wsgi", marks=pytest.mark.wide)]
STALLING_ADAPTERS = [pytest.param("mod_wsgi-embedded", marks=pytest.mark.wide), "mod_python-wsgi"]
# Longer than the window: a start that lasts this long went on past it.
WORK_S = 1.5 * TIMEOUT_S
# Long enough that the window without progress ends well before the sleeping children wake.
STALL_S = 3 * TIMEOUT_S


def importing_server(
    adapter: str,
    workdir: Path,
    require_program: Callable[[str, str], Path],
    work: str,
    work_s: float = WORK_S,
) -> Deployment:
    environment = slow_app_environment(workdir, require_program)
    app = Path(environment[USER_APP_PATH_VARIABLE]) / "slow_app.py"
    app.write_text(WORKING_APP.format(work_s=work_s, work=work))
    plan = prefork_plan(workdir, environment)
    deployment = find_adapter(adapter).build(plan)
    assert isinstance(deployment, ManagedServer)
    deployment.start_timeout_s = TIMEOUT_S
    return deployment


@pytest.mark.parametrize("adapter", WORKING_ADAPTERS)
def test_a_start_whose_children_keep_importing_is_waited_for_past_its_timeout(
    adapter: str, workdir: Path, require_program: Callable[[str, str], Path]
) -> None:
    server = importing_server(adapter, workdir, require_program, work="sum(range(10_000))")
    began = time.monotonic()
    with server:
        assert time.monotonic() - began >= WORK_S


@pytest.mark.parametrize("adapter", STALLING_ADAPTERS)
def test_a_start_whose_children_stall_fails_its_timeout_after_the_last_progress(
    adapter: str, workdir: Path, require_program: Callable[[str, str], Path]
) -> None:
    # The children sleep through their import: no CPU, no more of them loaded.
    server = importing_server(adapter, workdir, require_program, "time.sleep(1)", STALL_S)
    with pytest.raises(ServerStartError, match=r"of [56] worker processes have loaded"), server:
        pass
