"""The lab's hosts: a topology file read (mistakes refused in one line), its hosts made network
namespaces on a bridge of their own, a server in one answering another over it, and nothing
left afterwards: not after the run, nor after the runner's SIGKILL and the next run's sweep."""

import fcntl
import os
import re
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from layerbench.errors import ConfigError
from layerbench.hosts import netns
from layerbench.hosts.lab_network import STATE_DIR, lab_network, sweep_abandoned_networks
from layerbench.hosts.topology import read_topology, topology_from
from layerbench.proc.ports import free_port
from layerbench.proc.process import ManagedProcess
from tests.cli_lines import said
from tests.conftest import missing
from tests.service_nodes import alive
from tests.session_process import first_lines, in_own_session, interrupt

TOPOLOGY = """\
subnet = "10.77.0.0/24"

[hosts.client1]
roles = ["client"]

[hosts.app1]
roles = ["app", "cache"]
"""


def test_a_topology_names_hosts_roles_and_addresses(tmp_path: Path) -> None:
    path = tmp_path / "topology.toml"
    path.write_text(TOPOLOGY)
    topology = read_topology(path)
    assert [(h.name, h.roles, str(h.address)) for h in topology.hosts] == [
        ("client1", ("client",), "10.77.0.1"),
        ("app1", ("app", "cache"), "10.77.0.2"),
    ]
    assert [h.name for h in topology.with_role("cache")] == ["app1"]


@pytest.mark.parametrize(
    ("document", "message"),
    [
        ({}, "no \\[hosts.NAME\\] table"),
        ({"hosts": {"a": {"roles": ["web"]}}}, "roles must be a list of client, front, app"),
        ({"hosts": {"A b": {"roles": ["app"]}}}, "host name 'A b'"),
        ({"subnet": "8.8.8.0/24", "hosts": {"a": {"roles": ["app"]}}}, "not a private range"),
        ({"subnet": "10.0.0.0/31", "hosts": {n: {"roles": ["app"]} for n in "abc"}}, "too few"),
        ({"hosts": {"a": {"roles": ["app"], "ssh": "u@h"}}}, "an SSH host can be a client only"),
        ({"host": {}}, "unknown keys \\['host'\\]"),
    ],
)
def test_a_wrong_topology_is_refused_in_one_line(document: dict[str, object], message: str) -> None:
    with pytest.raises(ConfigError, match=message) as error:
        topology_from(document, "t.toml")
    assert "\n" not in str(error.value)


def test_an_unreadable_topology_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="cannot read the topology"):
        read_topology(tmp_path / "absent.toml")
    (tmp_path / "bad.toml").write_text("hosts = [")
    with pytest.raises(ConfigError, match="is not TOML"):
        read_topology(tmp_path / "bad.toml")


@pytest.fixture
def can_make_namespaces() -> None:
    if os.geteuid() != 0:
        missing("network namespaces need root")
    try:
        netns.namespaces()
    except netns.NamespaceError as error:
        missing(str(error))


def hosts_token(shown: bytes) -> str:
    """The token of the hosts that `hosts up` made, from its table (not from a line of the
    sweep of a killed run's hosts, which may come first)."""
    found = re.search(rb"ip netns exec lbh-([0-9a-f]+)-", shown)
    assert found is not None, shown
    return found.group(1).decode()


def ours(token: str) -> list[str]:
    return [n for n in netns.namespaces() if n == f"lbh-{token}" or n.startswith(f"lbh-{token}-")]


FETCH = (
    "import sys, urllib.request; "
    "print(urllib.request.urlopen(sys.argv[1], timeout=2).read().decode())"
)


def test_a_server_in_one_host_answers_another_over_the_bridge(
    can_make_namespaces: None, tmp_path: Path
) -> None:
    topology = topology_from(
        {"hosts": {"client1": {"roles": ["client"]}, "app1": {"roles": ["app"]}}}, "t"
    )
    (tmp_path / "site").mkdir()
    (tmp_path / "site" / "hello.txt").write_text("over the bridge\n")
    port = free_port()
    app = topology.host("app1")
    with lab_network(topology) as network:
        token = network.token
        assert sorted(ours(token)) == sorted(network.namespaces())
        server = ManagedProcess(
            "http.server",
            network.command(
                app,
                [sys.executable, "-m", "http.server", "--bind", str(app.address), str(port)],
            ),
            log_path=tmp_path / "server.log",
            cwd=tmp_path / "site",
        ).start()
        try:
            url = f"http://{app.address}:{port}/hello.txt"
            fetch = network.command("client1", [sys.executable, "-c", FETCH, url])
            deadline = time.monotonic() + 10
            while True:
                done = subprocess.run(
                    fetch, capture_output=True, text=True, timeout=10, check=False
                )
                if done.returncode == 0 or time.monotonic() > deadline:
                    break
                time.sleep(0.1)
            assert done.stdout == "over the bridge\n\n", done.stderr + server.log_tail()
            # The subnet exists only inside the namespaces: the machine's own has no address
            # in it (nothing there is routed to the bridge).
            assert "10.77.0." not in netns.ip("-4", "addr")
            inside = netns.ip("-4", "addr", "show", "eth0", namespace=network.namespace(app))
            assert f"{app.address}/24" in inside
        finally:
            server.stop()
    assert ours(token) == []
    assert not (STATE_DIR / token).exists()


RUNNER = """
import subprocess, sys, time
from layerbench.hosts.lab_network import lab_network
from layerbench.hosts.topology import topology_from
topology = topology_from({"hosts": {"a": {"roles": ["client"]}, "b": {"roles": ["db"]}}}, "t")
with lab_network(topology) as network:
    sleeper = subprocess.Popen(network.command("b", ["sleep", "300"]))
    print(network.token, sleeper.pid, flush=True)
    time.sleep(300)
"""


def test_a_killed_runs_namespaces_are_swept_by_the_next(can_make_namespaces: None) -> None:
    runner = subprocess.Popen(
        [sys.executable, "-c", RUNNER], stdout=subprocess.PIPE, text=True, start_new_session=True
    )
    try:
        assert runner.stdout is not None
        token, sleeper = runner.stdout.readline().split()
        sweep_abandoned_networks()
        assert len(ours(token)) == 3, "a live run's namespaces are left to it"
    finally:
        runner.send_signal(signal.SIGKILL)
        runner.wait()
        if runner.stdout is not None:
            runner.stdout.close()
    assert len(ours(token)) == 3 and alive(int(sleeper)), "a SIGKILL leaves them"
    named = (STATE_DIR / token).read_text().splitlines()[1:]
    assert sorted(named) == sorted(ours(token))
    assert sorted(sweep_abandoned_networks()) == sorted(named)
    assert ours(token) == []
    assert not (STATE_DIR / token).exists()
    deadline = time.monotonic() + 5
    while alive(int(sleeper)) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not alive(int(sleeper)), "the process inside the namespace is gone"


def killed_run() -> tuple[str, list[str]]:
    """A run's token and the namespaces its marker names, the run killed with SIGKILL."""
    runner = subprocess.Popen(
        [sys.executable, "-c", RUNNER], stdout=subprocess.PIPE, text=True, start_new_session=True
    )
    try:
        assert runner.stdout is not None
        token, _ = runner.stdout.readline().split()
    finally:
        runner.send_signal(signal.SIGKILL)
        runner.wait()
        if runner.stdout is not None:
            runner.stdout.close()
    return token, (STATE_DIR / token).read_text().splitlines()[1:]


def test_a_sweep_passes_by_what_another_sweep_is_removing(can_make_namespaces: None) -> None:
    # Two commands started together after a killed run: the one that holds the marker's lock
    # removes its namespaces, the other leaves them to it.
    token, named = killed_run()
    try:
        with open(STATE_DIR / token) as held:
            fcntl.flock(held, fcntl.LOCK_EX)
            sweep_abandoned_networks()
            assert sorted(ours(token)) == sorted(named), "left to the sweep that holds it"
    finally:
        sweep_abandoned_networks()
    assert ours(token) == []
    assert not (STATE_DIR / token).exists()


def test_a_namespace_another_sweep_deleted_meanwhile_is_not_an_error(
    can_make_namespaces: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    token, _ = killed_run()
    listed = netns.pids_in

    def deleted_by_another_sweep_once_listed(name: str) -> list[int]:
        pids = listed(name)
        netns.ip("netns", "del", name)
        return pids

    monkeypatch.setattr(netns, "pids_in", deleted_by_another_sweep_once_listed)
    try:
        assert sweep_abandoned_networks() == []  # none was ours to remove
    finally:
        monkeypatch.undo()
        sweep_abandoned_networks()
    assert ours(token) == []
    assert not (STATE_DIR / token).exists()


def test_ctrl_c_removes_the_namespaces_and_what_runs_in_them(can_make_namespaces: None) -> None:
    runner = subprocess.Popen(
        [sys.executable, "-c", RUNNER], stdout=subprocess.PIPE, text=True, start_new_session=True
    )
    try:
        assert runner.stdout is not None
        token, sleeper = runner.stdout.readline().split()
        assert len(ours(token)) == 3
        runner.send_signal(signal.SIGINT)
        runner.wait(timeout=10)
    finally:
        if runner.returncode is None:
            runner.kill()
            runner.wait()
        if runner.stdout is not None:
            runner.stdout.close()
    assert ours(token) == [], "removed by the run itself, no sweep needed"
    assert not (STATE_DIR / token).exists()
    deadline = time.monotonic() + 5
    while alive(int(sleeper)) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not alive(int(sleeper))


LAYERBENCH = [sys.executable, "-m", "layerbench.cli"]


def test_hosts_up_prints_the_hosts_and_ctrl_c_removes_them(
    can_make_namespaces: None, tmp_path: Path
) -> None:
    path = tmp_path / "topology.toml"
    path.write_text(TOPOLOGY)
    with in_own_session([*LAYERBENCH, "hosts", "up", str(path)]) as process:
        lines = first_lines(process.stdout, 2, timeout_s=20)
        assert [line[:3] for line in lines] == [
            ["client1", "10.77.0.1", "client"],
            ["app1", "10.77.0.2", "app,cache"],
        ]
        prefix = lines[1][3:]
        assert prefix[:3] == ["ip", "netns", "exec"]
        inside = subprocess.run(
            [*prefix, "ip", "-4", "-o", "addr", "show", "eth0"],
            capture_output=True,
            text=True,
            check=True,
        )
        assert "10.77.0.2/24" in inside.stdout
        errors = interrupt(process)
    assert process.returncode == 130, errors
    assert "Traceback" not in errors
    token = prefix[3].split("-")[1]
    assert ours(token) == []


# A command in a session of its own whose standard input is made its controlling terminal.
# A session whose controlling terminal is the pty, SIGHUP's disposition as a login shell leaves
# it (a runner under nohup hands its children SIGHUP ignored, and layerbench keeps nohup's
# choice).
ON_ITS_TERMINAL = [
    sys.executable,
    "-c",
    "import fcntl, os, signal, sys, termios\n"
    "fcntl.ioctl(0, termios.TIOCSCTTY, 0)\n"
    "signal.signal(signal.SIGHUP, signal.SIG_DFL)\n"
    "os.execv(sys.argv[1], sys.argv[1:])\n",
]


def test_hosts_up_on_a_terminal_that_closes_removes_them(
    can_make_namespaces: None, tmp_path: Path
) -> None:
    # The terminal closes (or the SSH session drops): the kernel hangs it up and sends SIGHUP,
    # which takes Ctrl-C's way out; that way's last line, to a terminal that is gone, must not
    # stop it.
    path = tmp_path / "topology.toml"
    path.write_text(TOPOLOGY)
    terminal, its_end = os.openpty()
    process = subprocess.Popen(
        [*ON_ITS_TERMINAL, *LAYERBENCH, "hosts", "up", str(path)],
        stdin=its_end,
        stdout=its_end,
        stderr=its_end,
        start_new_session=True,
    )
    os.close(its_end)
    try:
        shown = b""
        deadline = time.monotonic() + 20
        while b"Ctrl-C removes them" not in shown and time.monotonic() < deadline:
            if select.select([terminal], [], [], 0.5)[0]:
                shown += os.read(terminal, 4096)
        assert b"Ctrl-C removes them" in shown, shown
        token = hosts_token(shown)
        assert len(ours(token)) == 3
        os.close(terminal)  # the terminal closes
        assert process.wait(20) == 130
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
    assert ours(token) == [], "removed by hosts up itself, no sweep needed"
    assert not (STATE_DIR / token).exists()


def test_hosts_up_refuses_a_wrong_topology_in_one_line(tmp_path: Path) -> None:
    path = tmp_path / "topology.toml"
    path.write_text('[hosts.a]\nroles = ["web"]\n')
    done = subprocess.run(
        [*LAYERBENCH, "hosts", "up", str(path)], capture_output=True, text=True, check=False
    )
    assert done.returncode == 2
    assert said(done.stderr).count("\n") == 1 and "roles must be a list of" in done.stderr
