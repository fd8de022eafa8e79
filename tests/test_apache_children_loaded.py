"""Apache is ready once every child it runs after its start has loaded the application. With
StartServers below MinSpareServers (prefork's 2 against 5 by default) Apache forks the missing
children in its first seconds, and more while they import (a child importing is not idle to
it); each imported the application (mod_wsgi's WSGIImportScript) on the server's CPUs while the
first cell ran: prefork's c=1 string cell read 457 req/s against event's 2,715."""

from collections.abc import Callable
from pathlib import Path

from layerbench.proc.ports import free_port
from layerbench.servers.adapters import ServerPlan, find_adapter
from layerbench.servers.apache import ApacheSettings
from layerbench.servers.loaded_workers import LOADED_DIR_NAME
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


def test_mod_wsgi_prefork_is_ready_once_every_child_has_loaded_the_application(
    workdir: Path, require_program: Callable[[str, str], Path]
) -> None:
    environment = slow_app_environment(workdir, require_program)
    plan = ServerPlan(
        workdir / "server",
        free_port(),
        workdir / "data" / "app.sqlite3",
        {},
        {"apache": {"mpm": "prefork"}},
        app_environment=environment,
    )
    (workdir / "data").mkdir()
    deployment = find_adapter("mod_wsgi-embedded").build(plan)
    with deployment:
        (session,) = deployment.roles()["server"]
        children = {pid for pid, _ in session_members({session}) if pid != session}
        loaded = {int(entry.name) for entry in (plan.workdir / LOADED_DIR_NAME).iterdir()}
    importing = sorted(children - loaded)
    assert not importing, f"ready with children {importing} still importing the application"
    assert len(children) >= 5, children  # MinSpareServers, or more forked meanwhile
