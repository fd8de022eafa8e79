"""Every server adapter started for real: it serves its rung's exact body (the application
adapters also a database rung, read by their workers' account), runs with the settings it was
given, records them, and leaves no process behind, interrupted or not."""

import json
import os
import pwd
import subprocess
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from layerbench.errors import MissingPackageError
from layerbench.proc.http_probe import http_get
from layerbench.rungs.rung_data import HELLO_VALUE
from layerbench.servers.adapters import ADAPTERS, ASGI, ServerPlan, Serves
from layerbench.servers.deployment import Deployment
from layerbench.servers.puma import workers_booted
from tests.adapter_plan import STATIC_BODY, STATIC_FILE, plan_for
from tests.conftest import missing
from tests.proc_scan import session_members

HELLO = HELLO_VALUE.encode()
TEMPLATE_BODY = b"<!doctype html>\n<title>layerbench</title>\n<p>" + HELLO + b"</p>"


def build(name: str, plan: ServerPlan) -> Deployment:
    try:
        return ADAPTERS[name].build(plan)
    except MissingPackageError as error:
        missing(str(error))
        raise AssertionError("unreachable") from error


def sessions_of(deployment: Deployment) -> set[int]:
    return {session for sessions in deployment.roles().values() for session in sessions}


def processes_in(sessions: set[int]) -> list[tuple[int, str]]:
    return session_members(sessions)


# The 500 connections' run, on a loaded machine: puma's took 31 s at a load average of 40.
RUN_TIMEOUT_S = 300


def eventually(condition: Callable[[], bool], timeout_s: float = 10.0) -> bool:
    deadline = time.monotonic() + timeout_s
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


def owner_of(pid: int) -> int:
    return os.stat(f"/proc/{pid}").st_uid


@pytest.mark.parametrize("name", list(ADAPTERS))
def test_adapter_takes_500_connections_serves_its_rung_and_leaves_nothing(
    name: str, workdir: Path, load_binary: Path
) -> None:
    # A fresh server: its children start and import the application while 500 connections
    # send their first requests at once (mod_python's import race answered 500s here,
    # Passenger's queue of 100 answered 503s). Every request is answered 200, however long
    # it waits: no server promises a fair turn, and puma's does not (it accepts a connection
    # only with a thread idle, and serves a kept-alive one's next request before), so on a
    # loaded machine a connection waits about the whole run for its first answer (4,891 of
    # 5,000 within 20 s at a load average of 26). The one time bound is the run's. Then the
    # same server serves its rung's exact body and a 404, and once stopped leaves nothing.
    plan = plan_for(workdir)
    deployment = build(name, plan)
    serves = ADAPTERS[name].serves
    path = "/" + STATIC_FILE if serves is Serves.STATIC else "/ladder/string"
    with deployment:
        sessions = sessions_of(deployment)
        assert processes_in(sessions)
        completed = subprocess.run(
            [str(load_binary), "-q", "-n", "5000", "-c", "500", "-k", "-s", str(RUN_TIMEOUT_S),
             "--json", "-", deployment.base_url + path],
            capture_output=True, text=True, timeout=RUN_TIMEOUT_S, check=False,
        )  # fmt: skip
        assert completed.returncode == 0, completed.stderr
        report = json.loads(completed.stdout)
        assert report["requests_failed"] == 0, (report["failures"], report["errors_by_kind"])
        assert report["requests_completed"] == 5000
        assert report["status_counts"] == {"200": 5000}
        if serves is Serves.STATIC:
            checks = {"/" + STATIC_FILE: STATIC_BODY}
        elif serves is Serves.STRING or ASGI in ADAPTERS[name].interfaces:
            checks = {"/ladder/string": HELLO}  # the ASGI servers' test application's one rung
        else:
            checks = {"/ladder/string": HELLO, "/ladder/template": TEMPLATE_BODY}
        for checked, body in checks.items():
            response = http_get(deployment.base_url + checked, timeout_s=10.0)
            assert (response.status, response.body) == (200, body), checked
        missing_path = http_get(deployment.base_url + "/no/such/page", timeout_s=10.0)
        assert missing_path.status == 404
        versions = deployment.versions()
        assert versions and all(versions.values())
    assert processes_in(sessions) == []
    assert plan.used, "the adapter recorded no settings"


@pytest.mark.parametrize("name", ["uwsgi-nginx", "mod_wsgi-daemon", "granian"])
def test_interrupted_run_leaves_no_process(name: str, workdir: Path) -> None:
    deployment = build(name, plan_for(workdir))
    with pytest.raises(KeyboardInterrupt), deployment:
        sessions = sessions_of(deployment)
        raise KeyboardInterrupt
    assert processes_in(sessions) == []


@pytest.mark.skipif(os.geteuid() != 0, reason="only root's Apache drops privileges")
def test_apache_children_run_unprivileged_and_read_the_database(workdir: Path) -> None:
    deployment = build("mod_wsgi-embedded", plan_for(workdir))
    with deployment:
        response = http_get(deployment.base_url + "/ladder/db-raw", timeout_s=10.0)
        assert (response.status, response.body) == (200, HELLO)
        (session,) = sessions_of(deployment)
        children = [pid for pid, _ in processes_in({session}) if pid != session]
        nobody = pwd.getpwnam("nobody").pw_uid
        assert children and {owner_of(pid) for pid in children} == {nobody}
        assert owner_of(session) == 0  # the parent keeps root to bind and manage


def test_mod_wsgi_daemon_runs_the_processes_it_is_given(workdir: Path) -> None:
    plan = plan_for(workdir, {"mod_wsgi-daemon": {"processes": "3", "threads": "4"}})
    deployment = build("mod_wsgi-daemon", plan)
    with deployment:
        (session,) = sessions_of(deployment)
        daemons = [
            pid
            for pid, _ in processes_in({session})
            if Path(f"/proc/{pid}/cmdline").read_bytes().startswith(b"(wsgi:layerbench)")
        ]
        assert len(daemons) == 3

        def threads_started() -> bool:
            # Its 4 request threads besides its main thread (and mod_wsgi's monitors).
            return all(len(os.listdir(f"/proc/{pid}/task")) >= 1 + 4 for pid in daemons)

        assert eventually(threads_started)
    assert plan.used["mod_wsgi-daemon"] == {
        "processes": 3,
        "threads": 4,
        "preload": True,
        "listen_backlog": 1024,
    }
    assert plan.used["apache"]["mpm"] == "event"


def test_gunicorn_forks_the_workers_it_is_given(workdir: Path) -> None:
    plan = plan_for(workdir, {"gunicorn": {"workers": "3"}})
    deployment = build("gunicorn", plan)
    with deployment:
        (session,) = sessions_of(deployment)
        assert len(processes_in({session})) == 1 + 3


def test_paste_runs_exactly_the_threads_it_is_given(workdir: Path, load_binary: Path) -> None:
    # paste adds threads when none is idle unless told not to, and refused fewer than 5.
    deployment = build("paste", plan_for(workdir, {"paste": {"threads": "2"}}))
    with deployment:
        completed = subprocess.run(
            [str(load_binary), "-q", "-n", "400", "-c", "20", "-k", "--json", "-",
             deployment.base_url + "/ladder/string"],
            capture_output=True, text=True, timeout=60, check=False,
        )  # fmt: skip
        assert completed.returncode == 0, completed.stderr
        assert json.loads(completed.stdout)["status_counts"] == {"200": 400}
        ((pid, _),) = processes_in(sessions_of(deployment))
        assert len(os.listdir(f"/proc/{pid}/task")) == 1 + 2


def test_apache_prefork_runs_the_start_servers_it_is_given(workdir: Path) -> None:
    book = {"apache": {"mpm": "prefork", "start_servers": "3", "min_spare_servers": "1"}}
    deployment = build("apache-static", plan_for(workdir, book))
    with deployment:
        (session,) = sessions_of(deployment)
        # prefork: the parent and its children, one thread each.
        pids = [pid for pid, _ in processes_in({session})]
        assert len(pids) == 1 + 3
        assert all(len(os.listdir(f"/proc/{pid}/task")) == 1 for pid in pids)


def test_uwsgi_behind_nginx_has_two_roles(workdir: Path) -> None:
    deployment = build("uwsgi-nginx", plan_for(workdir))
    with deployment:
        roles = deployment.roles()
        assert set(roles) == {"front", "server"}
        names = {role: {n for _, n in processes_in(s)} for role, s in roles.items()}
        assert names["front"] == {"nginx"}
        assert "uwsgi-core" in names["server"] or "uwsgi" in names["server"]


def test_puma_counts_the_workers_its_master_booted(tmp_path: Path) -> None:
    # Its readiness: an answer, then every worker booted. The log is appended to by each start.
    log = tmp_path / "puma.log"
    log.write_text(
        "[7] - Worker 0 (PID: 9) booted in 0.01s, phase: 0\n"
        "[7] - Worker 1 (PID: 10) booted in 0.01s, phase: 0\n"
        "[12] * Preloading application\n"
        "[12] - Worker 1 (PID: 14) booted in 2.31s, phase: 0\n"
        "[12] - Worker 1 (PID: 15) booted in 0.02s, phase: 0\n"  # restarted: still one
    )
    assert workers_booted(log, 7) == 2
    assert workers_booted(log, 12) == 1
