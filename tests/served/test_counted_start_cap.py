"""A counted start's cap (layerbench.served.counted_launch): a server started under callgrind is
given more than a native start, more for each process that loads the application under valgrind;
the same server started natively again has the native cap; and the cap a server holds is the one
its wait for readiness gives up at."""

import signal
from pathlib import Path

import pytest

from layerbench.errors import ServerStartError
from layerbench.proc.lifecycle import ProcessLifecycle
from layerbench.proc.readiness import START_CAP_S
from layerbench.served.counted_launch import servers_of
from layerbench.served.served_cost import counted
from layerbench.servers.managed_server import ManagedServer
from tests.served_deployments import served_deployment


def _daemon(root: Path, processes: int) -> ManagedServer:
    book = {"mod_wsgi-daemon": {"processes": str(processes), "threads": "10"}}
    deployment, _ = served_deployment("mod_wsgi-daemon", root, book=book)
    ((_, server),) = servers_of(deployment)
    return server


def test_a_counted_start_is_given_more_the_more_processes_it_starts(tmp_path: Path) -> None:
    caps = {}
    for processes in (2, 20):
        server = _daemon(tmp_path / str(processes), processes)
        assert server.start_cap_s == START_CAP_S
        with counted(server, tmp_path / f"dumps{processes}", cache_sim=False):
            caps[processes] = server.start_cap_s
        assert server.start_cap_s == START_CAP_S  # natively again: the native cap
    assert START_CAP_S < caps[2] < caps[20]


class _NeverReady(ProcessLifecycle):
    """A process that keeps running and never says it is ready."""

    name = "never-ready"
    stop_signal = signal.SIGINT

    def __init__(self, workdir: Path) -> None:
        super().__init__(cpus=None, start_timeout_s=600.0)
        self.workdir = workdir

    def start(self) -> "_NeverReady":
        process = self.launch(self.name, ["sleep", "60"], log_path=self.workdir / "log")
        self.wait_ready(process, lambda: "not yet", interval_s=0.01)
        return self


def test_a_start_gives_up_at_the_cap_it_holds(tmp_path: Path) -> None:
    lifecycle = _NeverReady(tmp_path)
    lifecycle.start_cap_s = 1.0
    with pytest.raises(ServerStartError, match="no answer within 1 s, the most a start is given"):
        lifecycle.start()
    lifecycle.stop()
    assert lifecycle.process.returncode() is not None
