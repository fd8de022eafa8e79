"""A topology host reached over SSH (issue 26): the load generator run on it, its JSON read
back over the channel and merged with a namespace client's; a Ctrl-C ends the remote run; an
SSH host that cannot be reached is one line and leaves nothing.

The SSH host is a lab namespace, ``remote1``, running a private sshd the test starts (its own
host key, configuration, authorized_keys and port; tests/ssh_server.py). The ssh client runs
where layerbench runs, in the machine's own network, as it would for a real host; the
topology's ssh_config reaches ``remote1`` through a ProxyCommand run inside the client host
``client1`` (the machine's network has no route to the lab's, as a real lab host may need a
jump host). So the SSH path is the real one end to end: ssh, sshd, a login, ``ssh -tt``'s
hang-up, the report on the channel.
"""

import getpass
import shutil
import signal
import subprocess
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from layerbench.errors import ConfigError, LoadGeneratorError
from layerbench.hosts import netns
from layerbench.hosts.lab_network import LabNetwork, lab_network
from layerbench.hosts.ssh_command import ssh_command
from layerbench.hosts.topology import Topology, read_topology, topology_from
from layerbench.lab.load_from_hosts import load_from_clients
from layerbench.lab.loadgen import LoadSpec
from layerbench.lab.ssh_load import SshSessions
from layerbench.proc.ports import free_port
from layerbench.proc.process import ManagedProcess
from tests.cli_lines import said
from tests.conftest import missing
from tests.e2e.test_hosts import LAYERBENCH, can_make_namespaces, ours
from tests.front_nginx_load import check_merged_exactly, load_front_nginx
from tests.proc_scan import processes_mentioning
from tests.session_process import first_lines, in_own_session, interrupt
from tests.ssh_server import SSHD, client_config, ssh_server

__all__ = ["can_make_namespaces"]  # the fixture, used by name

INSTALL = "apt-get install openssh-server"


def test_an_ssh_host_is_a_client_reached_over_ssh(tmp_path: Path) -> None:
    (tmp_path / "lab_ssh_config").write_text("")
    document = {
        "ssh_config": "lab_ssh_config",
        "hosts": {
            "front": {"roles": ["front"]},
            "far1": {
                "roles": ["client"],
                "ssh": "bench@far1.example.org:2222",
                "load_binary": "/opt/lb/layerbench-load",
            },
            "far2": {"roles": ["client"], "ssh": "10.1.2.3"},
        },
    }
    topology = topology_from(document, "t.toml", directory=tmp_path)
    assert [host.name for host in topology.hosts] == ["front"]
    assert str(topology.host("front").address) == "10.77.0.1", "SSH hosts take no address"
    far1, far2 = topology.ssh_hosts
    assert (far1.destination, far1.port, far1.load_binary) == (
        "bench@far1.example.org",
        2222,
        "/opt/lb/layerbench-load",
    )
    assert (far2.destination, far2.port, far2.load_binary) == ("10.1.2.3", None, None)
    assert topology.ssh_config == tmp_path / "lab_ssh_config"
    command = ssh_command(far1, topology.ssh_config, ["layerbench-load", "-c", "2", "http://a b/"])
    assert command[:4] == ["ssh", "-F", str(tmp_path / "lab_ssh_config"), "-tt"]
    assert "BatchMode=yes" in command
    assert command[-4:] == [
        "2222",
        "--",
        "bench@far1.example.org",
        "exec layerbench-load -c 2 'http://a b/'",
    ]


@pytest.mark.parametrize(
    ("table", "message"),
    [
        ({"ssh": "-oProxyCommand=x"}, 'expected "\\[user@\\]host\\[:port\\]"'),
        ({"ssh": "u@h:0"}, "expected"),
        ({"ssh": "u@h:65536"}, "expected"),
        ({"ssh": "u@"}, "expected"),
        ({"ssh": "u@h p"}, "expected"),
        ({"ssh": 22}, "expected"),
        ({"ssh": "u@h", "roles": ["client", "db"]}, "an SSH host can be a client only .*; db run"),
        ({"ssh": "u@h", "load_binary": "bin/layerbench-load"}, "load_binary must be an absolute"),
        ({"ssh": "u@h", "address": "10.0.0.1"}, "unknown keys \\['address'\\]"),
        ({"load_binary": "/x"}, "unknown keys \\['load_binary'\\] \\(roles; ssh for a host"),
    ],
)
def test_a_wrong_ssh_host_is_refused_in_one_line(table: dict[str, Any], message: str) -> None:
    document = {"hosts": {"far1": {"roles": ["client"], **table}}}
    with pytest.raises(ConfigError, match=message) as error:
        topology_from(document, "t.toml")
    assert str(error.value).startswith("t.toml: host far1"), error.value
    assert "\n" not in str(error.value)


def test_a_missing_ssh_config_is_refused_in_one_line(tmp_path: Path) -> None:
    document = {"ssh_config": "absent", "hosts": {"a": {"roles": ["app"]}}}
    with pytest.raises(ConfigError, match=r"t\.toml: ssh_config 'absent' is not a file$"):
        topology_from(document, "t.toml", directory=tmp_path)


@pytest.mark.parametrize(
    "command", [["ladder"], ["matrix", "--servers", "gunicorn"], ["mix", "--hit", "0.9"]]
)
def test_ladder_matrix_and_mix_refuse_a_topology_with_ssh_hosts(
    tmp_path: Path, command: list[str]
) -> None:
    # Their servers go on the lab's namespaces, which a real SSH host cannot reach.
    topology = tmp_path / "t.toml"
    topology.write_text(
        '[hosts.client1]\nroles = ["client"]\n[hosts.app1]\nroles = ["app", "front"]\n'
        '[hosts.far1]\nroles = ["client"]\nssh = "bench@127.0.0.1:9"\n'
    )
    done = subprocess.run(
        [*LAYERBENCH, *command, "--topology", str(topology)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        cwd=tmp_path,
    )
    assert done.returncode == 2, done.stderr
    assert said(done.stderr).count("\n") == 1, done.stderr
    assert "the topology has SSH hosts (far1): ladder, matrix and mix place" in done.stderr
    assert list(tmp_path.iterdir()) == [topology], "nothing written"


def test_ssh_sessions_end_their_runs_only_when_the_load_ended_early(tmp_path: Path) -> None:
    # Stand-ins for the local ssh clients: what SshSessions does to them is all it does.
    def sleeper(name: str) -> ManagedProcess:
        return ManagedProcess(name, ["sleep", "60"], log_path=tmp_path / f"{name}.log").start()

    finished, failed, late = SshSessions(), SshSessions(), SshSessions()
    kept, ended, started_late = sleeper("kept"), sleeper("ended"), sleeper("late")
    try:
        finished.started(kept.pid)
        finished.end(hang_up=False)  # a load that ended well leaves its runs alone
        failed.started(ended.pid)
        failed.end(hang_up=True)
        failed.end(hang_up=False)  # the finally after the except: nothing more
        late.end(hang_up=True)
        late.started(started_late.pid)  # started after its load had ended: ended at once
        assert ended.wait(5) == -signal.SIGTERM
        assert started_late.wait(5) == -signal.SIGTERM
        assert kept.returncode() is None
    finally:
        for process in (kept, ended, started_late):
            process.stop()


@pytest.fixture
def can_run_sshd(can_make_namespaces: None) -> None:
    if not SSHD.exists() or shutil.which("ssh") is None:
        missing(f"sshd and ssh are not installed; install them with: {INSTALL}")


def lab_topology(
    tmp_path: Path, ssh_port: int, *, client1: str = "client", **far1: str
) -> Topology:
    """client1 (its role ``client1``) and front (namespaces), remote1 (a namespace standing in
    for a machine elsewhere: the test's sshd runs there) and far1, the SSH host: remote1
    reached over SSH. The ssh_config is filled in once the network exists (its ProxyCommand
    names a namespace). ``far1``: more of far1's keys."""
    (tmp_path / "ssh_config").write_text("")
    document = {
        "ssh_config": "ssh_config",
        "hosts": {
            "client1": {"roles": [client1]},
            "front": {"roles": ["front"]},
            "remote1": {"roles": ["app"]},
            "far1": {
                "roles": ["client"],
                "ssh": f"{getpass.getuser()}@remote1:{ssh_port}",
                **far1,
            },
        },
    }
    return topology_from(document, "t", directory=tmp_path)


def comm(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/comm").read_text().strip()
    except OSError:
        return ""


def loads_in(network: LabNetwork, host: str) -> list[int]:
    """The load generators running on the lab host ``host``."""
    return [pid for pid in netns.pids_in(network.namespace(host)) if comm(pid) == "layerbench-load"]


@contextmanager
def watching(condition: Callable[[], bool], then: Callable[[], None]) -> Iterator[list[float]]:
    """A thread that polls ``condition`` until it holds (then calls ``then`` and records when)
    or the block ends."""
    seen: list[float] = []
    done = threading.Event()

    def watch() -> None:
        while not done.wait(0.05):
            if condition():
                seen.append(time.monotonic())
                then()
                return

    thread = threading.Thread(target=watch, daemon=True)
    thread.start()
    try:
        yield seen
    finally:
        done.set()
        thread.join()


@pytest.mark.usefixtures("can_run_sshd")
def test_an_ssh_host_and_a_namespace_client_load_one_nginx_merged(
    tmp_path: Path, nginx_binary: Path, load_binary: Path, workdir: Path
) -> None:
    port = free_port()
    topology = lab_topology(tmp_path, port)
    with (
        lab_network(topology) as network,
        ssh_server(network, "remote1", tmp_path / "sshd", port) as server,
    ):
        token = network.token
        (tmp_path / "ssh_config").write_text(
            client_config(server, network, "remote1", via="client1")
        )
        spec = LoadSpec(concurrency=4, duration_s=1.0, warmup_s=0.2)
        with watching(lambda: bool(loads_in(network, "remote1")), lambda: None) as on_remote1:
            merged, results = load_front_nginx(
                network, load_binary=load_binary, workdir=workdir, spec=spec
            )
        assert on_remote1, "the SSH host's load generator ran on remote1"
    assert ours(token) == []
    assert len(results) == 2
    check_merged_exactly(merged, results)


@pytest.mark.usefixtures("can_run_sshd")
def test_ctrl_c_ends_the_run_on_the_ssh_host(
    tmp_path: Path, nginx_binary: Path, load_binary: Path, workdir: Path
) -> None:
    port = free_port()
    topology = lab_topology(tmp_path, port, client1="app")  # far1 the only client
    config = tmp_path / "ssh_config"
    main = threading.main_thread().ident
    assert main is not None
    with (
        lab_network(topology) as network,
        ssh_server(network, "remote1", tmp_path / "sshd", port) as server,
    ):
        config.write_text(client_config(server, network, "remote1", via="client1"))
        # Ctrl-C (SIGINT to layerbench's main thread) once remote1 runs the load.
        spec = LoadSpec(concurrency=2, duration_s=30.0, warmup_s=0.0)
        with (
            pytest.raises(KeyboardInterrupt),
            watching(
                lambda: bool(loads_in(network, "remote1")),
                lambda: signal.pthread_kill(main, signal.SIGINT),
            ) as interrupted,
        ):
            load_front_nginx(network, load_binary=load_binary, workdir=workdir, spec=spec)

        # Looked at while remote1 still exists: leaving the network would kill what runs
        # there whatever the SSH path did. The local ssh and its ProxyCommand (the relay,
        # in client1) are gone and so is the remote run, long before its 30 s were up.
        def left() -> list[int]:
            relays = netns.pids_in(network.namespace("client1"))
            return loads_in(network, "remote1") + processes_mentioning(str(config)) + relays

        deadline = time.monotonic() + 10
        while left() and time.monotonic() < deadline:
            time.sleep(0.05)
        assert interrupted, "the load ran on remote1 and was interrupted"
        assert loads_in(network, "remote1") == [], "the remote run outlived the Ctrl-C"
        assert left() == [], "a local ssh or its relay outlived the Ctrl-C"
        assert time.monotonic() - interrupted[0] < 10


@pytest.mark.usefixtures("can_run_sshd")
def test_an_ssh_host_that_cannot_be_reached_is_one_line_and_leaves_nothing(
    tmp_path: Path, load_binary: Path, workdir: Path
) -> None:
    port = free_port()
    topology = lab_topology(tmp_path, port, client1="app")  # far1 the only client
    config = tmp_path / "ssh_config"
    spec = LoadSpec(concurrency=2, duration_s=0.5, warmup_s=0.0)
    with lab_network(topology) as network:
        token = network.token
        # Every file an sshd would have, but no sshd: nothing listens on remote1's port.
        with ssh_server(network, "remote1", tmp_path / "sshd", port) as server:
            config.write_text(client_config(server, network, "remote1", via="client1"))
        with pytest.raises(LoadGeneratorError) as error:
            load_from_clients(
                network, binary=load_binary, url="http://10.77.0.2:9/", spec=spec, workdir=workdir
            )
        message = str(error.value)
        assert message.startswith("ssh to the SSH host far1 (") and "failed: " in message, message
        assert "\n" not in message
        assert processes_mentioning(str(config)) == []
        assert netns.pids_in(network.namespace("client1")) == [], "the relay is gone"
    assert ours(token) == []


@pytest.mark.usefixtures("can_run_sshd")
def test_an_ssh_host_runs_its_load_binary_and_a_missing_one_is_one_line(
    tmp_path: Path, load_binary: Path, workdir: Path
) -> None:
    port = free_port()
    absent = "/nonexistent/layerbench-load"
    topology = lab_topology(tmp_path, port, client1="app", load_binary=absent)
    spec = LoadSpec(concurrency=2, duration_s=0.5, warmup_s=0.0)
    with (
        lab_network(topology) as network,
        ssh_server(network, "remote1", tmp_path / "sshd", port) as server,
    ):
        (tmp_path / "ssh_config").write_text(
            client_config(server, network, "remote1", via="client1")
        )
        with pytest.raises(LoadGeneratorError) as error:
            load_from_clients(
                network, binary=load_binary, url="http://10.77.0.2:9/", spec=spec, workdir=workdir
            )
    message = str(error.value)
    where = f"the SSH host far1 ({getpass.getuser()}@remote1:{port})"
    assert message.startswith(f"layerbench-load on {where} failed with exit status 127: "), message
    assert absent in message and "\n" not in message


@pytest.mark.usefixtures("can_run_sshd")
def test_hosts_up_prints_an_ssh_host_with_the_command_that_reaches_it(tmp_path: Path) -> None:
    port = free_port()
    path = tmp_path / "topology.toml"
    (tmp_path / "ssh_config").write_text("")
    path.write_text(
        'ssh_config = "ssh_config"\n[hosts.client1]\nroles = ["client"]\n'
        '[hosts.remote1]\nroles = ["app"]\n'
        f'[hosts.far1]\nroles = ["client"]\nssh = "{getpass.getuser()}@remote1:{port}"\n'
    )
    with in_own_session([*LAYERBENCH, "hosts", "up", str(path)]) as process:
        lines = first_lines(process.stdout, 3, timeout_s=20)
        assert lines[2][:3] == ["far1", f"{getpass.getuser()}@remote1:{port}", "client"]
        token = lines[0][6].split("-")[1]  # ip netns exec lbh-TOKEN-client1
        network = LabNetwork(read_topology(path), token)
        with ssh_server(network, "remote1", tmp_path / "sshd", port) as server:
            config = client_config(server, network, "remote1", via="client1")
            (tmp_path / "ssh_config").write_text(config)
            on_far1 = subprocess.run(
                [*lines[2][3:], "ip", "-4", "-o", "addr", "show", "eth0"],
                capture_output=True,
                text=True,
                timeout=30,
                check=False,
            )
        assert "10.77.0.2/24" in on_far1.stdout, on_far1.stderr  # remote1's address
        errors = interrupt(process)
    assert process.returncode == 130, errors
    assert ours(token) == []
