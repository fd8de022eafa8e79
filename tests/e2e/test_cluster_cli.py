"""``layerbench cluster`` from the command line: a wrong topology or option is one line and exit
2, before anything starts; Ctrl-C during the run stops it (exit 130) with what was measured
printed and kept in its --json file, and leaves no namespace of the run and no process in one."""

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from layerbench.cli.main import run
from layerbench.hosts import netns
from layerbench.hosts.lab_network import STATE_DIR
from tests.conftest import missing

LAYERBENCH = [sys.executable, "-m", "layerbench.cli"]
GOOD = """
[hosts.client1]
roles = ["client"]
[hosts.front]
roles = ["front"]
[hosts.app1]
roles = ["app"]
[hosts.app2]
roles = ["app"]
[hosts.db1]
roles = ["db", "cache"]
"""
ONE_APP_HOST = GOOD.replace('[hosts.app2]\nroles = ["app"]\n', "")
NO_FRONT = GOOD.replace('[hosts.front]\nroles = ["front"]\n', "")
INTERRUPT_AFTER_S = 120
SWEPT = "layerbench: removed "


def error_lines(stderr: str) -> list[str]:
    """stderr's lines but the sweep's, which any command may print first (namespaces of some
    killed run on this machine removed)."""
    return [line for line in stderr.splitlines() if not line.startswith(SWEPT)]


def topology(tmp_path: Path, text: str) -> str:
    path = tmp_path / "topology.toml"
    path.write_text(text)
    return str(path)


@pytest.mark.parametrize(
    ("text", "options", "message"),
    [
        (ONE_APP_HOST, [], "needs at least 2 hosts with the role app (it has 1)"),
        (NO_FRONT, [], "the cluster needs a host with the role front"),
        (GOOD.replace('"client"', '"clinet"'), [], "roles must be a list of"),
        (GOOD.replace('"db", "cache"', '"db"'), [], "the cluster needs a host with the role cache"),
        (
            GOOD + '[hosts.far]\nroles = ["client"]\nssh = "10.1.2.3"\n',
            [],
            "the cluster runs on the lab's namespaces, not on SSH hosts (far)",
        ),
        (GOOD, ["--cache", "shraed"], "--cache: comma-separated, of shared, local"),
        (GOOD, ["--writers", "1,three"], "--writers '1,three': comma-separated whole numbers"),
        (GOOD, ["--duration", "0"], "--duration 0: more than 0"),
    ],
)
def test_a_wrong_topology_or_option_is_one_line(
    tmp_path: Path, text: str, options: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(["cluster", topology(tmp_path, text), *options]) == 2
    out, err = capsys.readouterr()
    lines = error_lines(err)
    assert len(lines) == 1 and lines[0].startswith("layerbench: error: "), err
    assert message in lines[0], err
    assert out == ""


def test_a_missing_topology_file_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(["cluster", str(tmp_path / "absent.toml")]) == 2
    err = capsys.readouterr().err
    assert len(error_lines(err)) == 1 and "cannot read the topology" in err, err


def namespaces_of(pid: int) -> list[str]:
    """The namespaces the run ``pid`` made (its marker names them)."""
    for marker in STATE_DIR.glob("*"):
        lines = marker.read_text().splitlines() if marker.is_file() else []
        if lines and lines[0].split()[0] == str(pid):
            return lines[1:]
    return []


@pytest.mark.services
def test_ctrl_c_during_the_run_leaves_nothing(tmp_path: Path) -> None:
    if os.geteuid() != 0:
        missing("network namespaces need root")
    results = tmp_path / "cluster.json"
    cluster = subprocess.Popen(
        [
            *LAYERBENCH,
            "cluster",
            topology(tmp_path, GOOD),
            *("--writers", "1", "--duration", "30", "--json", str(results)),
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert cluster.stderr is not None
        names: list[str] = []
        pids: list[int] = []
        deadline = time.monotonic() + INTERRUPT_AFTER_S
        for line in cluster.stderr:  # interrupted once the site runs (every kind of process up)
            if time.monotonic() > deadline:
                break
            if line.startswith("1 writers on node 1"):
                time.sleep(3)  # the site starting
                names = namespaces_of(cluster.pid)
                pids = [pid for name in names for pid in netns.pids_in(name)]
                cluster.send_signal(signal.SIGINT)
                break
        out, err = cluster.communicate(timeout=60)
    finally:
        if cluster.poll() is None:
            cluster.kill()
            cluster.wait()
    if not names:
        missing(f"the cluster did not get to its site: {err[-300:]}")
    assert cluster.returncode == 130, err[-2000:]
    assert err.endswith("layerbench: interrupted\n"), err[-2000:]
    assert "writers  nodes" in out and "read-your-write" in out  # what was measured, printed
    document = json.loads(results.read_text())  # and kept, marked interrupted
    assert document["interrupted"] is True and document["one_node"]["writers"] == 1
    hosts = document["conditions"]["topology"]["hosts"]
    assert {host["namespace"] for host in hosts} <= set(names)  # and the switch's
    assert len(pids) >= 5
    assert set(names) & set(netns.namespaces()) == set()
    assert [pid for pid in pids if os.path.exists(f"/proc/{pid}")] == []
