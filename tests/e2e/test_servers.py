"""Server adapters against the real servers: up, ready, serving, and gone after stop."""

import socket
from pathlib import Path

import pytest

from layerbench.errors import MissingBinaryError, PortInUseError, ServerStartError
from layerbench.lab.verify import verify_rung
from layerbench.proc.binaries import find_program
from layerbench.proc.http_probe import http_get
from layerbench.proc.ports import LOOPBACK, free_port
from layerbench.rungs.definitions import LADDER, STATIC_BODY, STATIC_FILE, Stack
from layerbench.servers.gunicorn import GunicornServer, GunicornSettings
from layerbench.servers.managed_server import ManagedServer
from layerbench.servers.nginx import NginxStatic
from layerbench_sites.app.ladder_data import prepare_app_data
from tests.proc_scan import processes_mentioning


def test_gunicorn_serves_every_python_rung_and_stops_its_workers(workdir: Path) -> None:
    data = prepare_app_data(workdir / "data")
    server = GunicornServer(
        workdir / "g",
        free_port(),
        data.db_path,
        GunicornSettings(workers=2),
        app_environment=data.environment,
    )
    with server:
        assert len(processes_mentioning(str(workdir))) == 3  # the arbiter and two workers
        for rung in LADDER:
            if rung.stack is Stack.PYTHON:
                verify_rung(server.base_url, rung)
        assert server.version()[0].isdigit()
    assert processes_mentioning(str(workdir)) == []


def test_gunicorn_that_cannot_load_the_app_fails_with_its_log(workdir: Path) -> None:
    missing_db_dir = workdir / "no-such-dir" / "db.sqlite3"
    server = GunicornServer(workdir / "g", free_port(), missing_db_dir, GunicornSettings())
    server.start_timeout_s = 5
    with pytest.raises(ServerStartError, match="gunicorn did not start") as caught:
        server.start()
    assert caught.value.log_tail  # what the server said is shown to the user
    assert processes_mentioning(str(workdir)) == []


def test_taken_port_is_refused_before_starting(workdir: Path, seeded_db: Path) -> None:
    with socket.socket() as listener:
        listener.bind((LOOPBACK, 0))
        listener.listen()
        port = listener.getsockname()[1]
        with pytest.raises(PortInUseError):
            GunicornServer(workdir / "g", port, seeded_db, GunicornSettings()).start()
    assert processes_mentioning(str(workdir)) == []


def test_nginx_serves_the_static_file_from_a_generated_config(
    nginx_binary: Path, workdir: Path
) -> None:
    server = NginxStatic(workdir / "nginx", free_port(), {STATIC_FILE: STATIC_BODY})
    with server:
        response = http_get(server.base_url + "/" + STATIC_FILE)
        assert (response.status, response.body) == (200, STATIC_BODY)
        assert response.headers["Server"].startswith("nginx")
        assert http_get(server.base_url + "/missing.txt").status == 404
        assert server.version().startswith("nginx/")
        assert processes_mentioning(str(workdir))
    assert processes_mentioning(str(workdir)) == []


def test_missing_program_names_the_package() -> None:
    with pytest.raises(MissingBinaryError, match="apt-get install some-package"):
        find_program("layerbench-no-such-program", "some-package")


class SilentServer(ManagedServer):
    """A 'server' that runs but never answers: the readiness deadline must catch it."""

    name = "silent"

    def version(self) -> str:
        return "0"

    def command(self) -> list[str]:
        return ["sh", "-c", "echo booting; echo still booting; exec sleep 60"]


def test_server_that_never_answers_times_out_with_its_log(workdir: Path) -> None:
    server = SilentServer(workdir, free_port(), start_timeout_s=0.5)
    with pytest.raises(
        ServerStartError, match=r"no answer within .* \(last: http://127\.0\.0\.1:\d+/: "
    ) as caught:
        server.start()
    assert caught.value.log_tail == "booting\nstill booting"
    assert "still booting" in str(caught.value)
