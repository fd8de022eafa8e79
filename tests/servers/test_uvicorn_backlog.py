"""uvicorn's adapters listen with the deepest backlog the kernel grants (net.core.somaxconn), or
the one they are given: uvloop accepts one connection per pass of its event loop, and at
c=5000 the lab's 1,024 overflowed (ECONNRESET and timeouts in the client). Read off the real
listening socket (``ss``: a listener's Send-Q is its backlog), not off the command line."""

import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from layerbench.servers.gunicorn_uvicorn import GunicornUvicornSettings
from layerbench.servers.managed_server import LISTEN_BACKLOG
from layerbench.servers.uvicorn import UvicornSettings
from layerbench.servers.uvicorn_backlog import SOMAXCONN, deepest_backlog
from tests.adapter_plan import plan_for
from tests.e2e.test_adapters import build

SERVERS = ("uvicorn", "gunicorn-uvicorn")


def listen_backlog(port: int) -> int:
    """The backlog of the socket listening on ``port``, as the kernel holds it."""
    lines = subprocess.run(
        ["ss", "-ltnH", f"sport = :{port}"], capture_output=True, text=True, check=True
    ).stdout.splitlines()
    (line,) = lines
    return int(line.split()[2])


def test_the_deepest_backlog_is_the_hosts_somaxconn() -> None:
    somaxconn = int(SOMAXCONN.read_text())
    assert deepest_backlog() == max(somaxconn, LISTEN_BACKLOG)
    assert UvicornSettings().backlog == deepest_backlog()
    assert GunicornUvicornSettings().backlog == deepest_backlog()


@pytest.mark.parametrize("name", SERVERS)
def test_uvicorn_listens_with_the_deepest_backlog(
    name: str, workdir: Path, require_program: Callable[[str, str], Path]
) -> None:
    require_program("ss", "iproute2")
    somaxconn = int(SOMAXCONN.read_text())
    if somaxconn <= LISTEN_BACKLOG:
        pytest.skip(f"net.core.somaxconn is {somaxconn}: no deeper backlog to grant")
    plan = plan_for(workdir)
    with build(name, plan):
        assert listen_backlog(plan.port) == somaxconn


@pytest.mark.parametrize("name", SERVERS)
def test_uvicorn_listens_with_the_backlog_it_is_given(
    name: str, workdir: Path, require_program: Callable[[str, str], Path]
) -> None:
    require_program("ss", "iproute2")
    plan = plan_for(workdir, {name: {"backlog": "100"}})
    with build(name, plan):
        assert listen_backlog(plan.port) == 100
