"""``layerbench ladder|matrix --topology FILE`` end to end, as root on real namespaces: each role
on its hosts (services on db/cache, the server under test on app, the front on front, the load
from the client), every process sampled with its host, a per-host table naming every host, and
nothing left after: no namespace of the run's, no process; a topology lacking a role refused in
one line; Ctrl-C keeps what was measured."""

import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from layerbench.errors import LayerbenchError
from layerbench.hosts import netns
from layerbench.hosts.topology import read_topology
from layerbench.lab.publish import ResultsFile
from layerbench.ladder.ladder_progress import LadderProgress
from layerbench.ladder.ladder_run import run_ladder
from layerbench.ladder.options import LadderOptions
from layerbench.rungs.definitions import Rung
from tests.cli_lines import said
from tests.conftest import missing
from tests.e2e.test_hosts import can_make_namespaces  # noqa: F401 (a fixture)
from tests.proc_scan import processes_mentioning

LAYERBENCH = [sys.executable, "-m", "layerbench.cli"]
SHORT = ["-d", "0.5", "--warmup", "0.2", "--repeats", "1"]
ROOT = Path(__file__).parent.parent.parent
FOUR_HOSTS = """
[hosts.client1]
roles = ["client"]
[hosts.front1]
roles = ["front"]
[hosts.app1]
roles = ["app"]
[hosts.data1]
roles = ["db", "cache"]
"""


def topology_file(tmp_path: Path, text: str = FOUR_HOSTS) -> Path:
    path = tmp_path / "topology.toml"
    path.write_text(text)
    return path


@pytest.fixture
def work_root() -> Iterator[Path]:
    """The runs' temporary directory (TMPDIR): every server's and service's command line names
    it, so that a process left behind is found. Traversable, as the run's own work directory:
    the services drop to an unprivileged account."""
    root = Path(tempfile.mkdtemp(prefix="layerbench-topology-test-"))
    root.chmod(0o711)
    try:
        yield root
    finally:
        shutil.rmtree(root, ignore_errors=True)


def layerbench(*args: str, cwd: Path, work_root: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*LAYERBENCH, *args], capture_output=True, text=True, cwd=cwd, timeout=240, check=False,
        env={**os.environ, "TMPDIR": str(work_root)},
    )  # fmt: skip


def namespaces_of(document: dict[str, Any]) -> set[str]:
    return {host["namespace"] for host in document["conditions"]["topology"]["hosts"]}


def topology_hosts(document: dict[str, Any]) -> set[str]:
    return {host["name"] for host in document["conditions"]["topology"]["hosts"]}


def hosts_by_role(trial: dict[str, Any]) -> dict[str, set[str]]:
    """Each role's processes' hosts in a rung's or cell's saved trial."""
    return {
        role: {process["host"] for process in saved["processes"]}
        for role, saved in trial["roles"].items()
    }


def assert_nothing_left(document: dict[str, Any], work_root: Path) -> None:
    assert not namespaces_of(document) & set(netns.namespaces())
    assert processes_mentioning(str(work_root)) == []


def cpu(per_host: list[dict[str, Any]], host: str, role: str, label: str) -> float:
    row = next(row for row in per_host if row["host"] == host and row["role"] == role)
    return float(row["cpu_percent"][label])


@pytest.mark.usefixtures("can_make_namespaces")
def test_a_short_ladder_runs_each_role_on_its_host(
    tmp_path: Path, work_root: Path, load_binary: Path
) -> None:
    rungs = "static,string,memcached,redis,postgres"
    # 1 s measured: the database's share of a short trial is a few clock ticks.
    done = layerbench(
        "ladder", "--full", "--rungs", rungs, "--topology", str(topology_file(tmp_path)),
        "-d", "1", "--warmup", "0.2", "--repeats", "1", cwd=tmp_path, work_root=work_root,
    )  # fmt: skip
    document = json.loads((tmp_path / "ladder.json").read_text())
    skipped = [rung["message"] for rung in document["rungs"] if rung["status"] == "skipped"]
    if skipped:
        missing(skipped[0])
    assert done.returncode == 0, done.stderr
    assert [(r["rung"], r["status"]) for r in document["rungs"]] == [
        (name, "ok") for name in rungs.split(",")
    ]
    hosts = {host["name"]: host for host in document["conditions"]["topology"]["hosts"]}
    assert hosts["data1"]["roles"] == ["db", "cache"]
    data_address = hosts["data1"]["address"]
    assert data_address in document["conditions"]["services"]["postgres"]
    assert data_address in document["conditions"]["services"]["memcached"]
    assert data_address in document["conditions"]["services"]["redis"]
    by_rung = {rung["rung"]: hosts_by_role(rung) for rung in document["rungs"]}
    assert by_rung["static"]["server"] == {"front1"}
    assert by_rung["static"]["client"] == {"client1"}
    assert by_rung["postgres"]["server"] == {"app1"}
    assert by_rung["postgres"]["database"] == {"data1"}
    assert by_rung["memcached"]["cache"] == {"data1"}
    assert by_rung["memcached"]["client"] == {"client1"}
    assert by_rung["redis"]["cache"] == {"data1"}
    # The per-host table: every host named, after the ladder's table.
    table = done.stdout[done.stdout.index("per host") :]
    assert all(f"\n{name} " in table for name in hosts)
    per_host = document["per_host"]
    assert {row["host"] for row in per_host} == set(hosts)
    # The client's CPU after the sampler's last sample before it exits is not counted (at most
    # an interval's worth: all of a short trial's, sometimes); over the rungs it is there.
    assert sum(cpu(per_host, "client1", "client", rung) for rung in rungs.split(",")) > 0
    busy = [("front1", "server", "static"), ("app1", "server", "string")]
    busy += [("data1", "database", "postgres")]
    assert all(cpu(per_host, *where) > 0 for where in busy), per_host
    assert_nothing_left(document, work_root)
    # The HTML report, from the saved file, has the per-host table too.
    report = layerbench(
        "report", "ladder.json", "-o", "report.html", cwd=tmp_path, work_root=work_root
    )
    assert report.returncode == 0, report.stderr
    html = (tmp_path / "report.html").read_text()
    per_host_table = html[html.index("<h2>Per host</h2>") :].split("</table>")[0]
    assert {name for name in hosts if f"<td>{name}</td>" in per_host_table} == set(hosts)


@pytest.mark.usefixtures("can_make_namespaces")
def test_a_matrix_of_two_servers_on_a_topology(
    tmp_path: Path, work_root: Path, load_binary: Path
) -> None:
    topology = topology_file(tmp_path, FOUR_HOSTS.replace('"db", "cache"', '"cache"'))
    done = layerbench(
        "matrix", "--servers", "gunicorn,uwsgi-nginx,nginx-static", "-c", "4", "--topology",
        str(topology),
        *SHORT, cwd=tmp_path, work_root=work_root,
    )  # fmt: skip
    document = json.loads((tmp_path / "matrix.json").read_text())
    skipped = [cell["message"] for cell in document["cells"] if cell["status"] == "skipped"]
    if skipped:
        missing(skipped[0])
    assert done.returncode == 0, done.stderr
    assert [(cell["column"], cell["status"]) for cell in document["cells"]] == [
        ("gunicorn", "ok"),
        ("uwsgi-nginx", "ok"),
        ("nginx-static", "ok"),
    ]
    gunicorn, uwsgi, static = (hosts_by_role(cell) for cell in document["cells"])
    # The static file's server is a front: on the front host.
    assert static == {"server": {"front1"}, "client": {"client1"}}
    assert gunicorn == {"server": {"app1"}, "client": {"client1"}}
    # uWSGI on the app host, its nginx on the front host.
    assert uwsgi == {"server": {"app1"}, "front": {"front1"}, "client": {"client1"}}
    assert "\nfront1 " in done.stdout[done.stdout.index("per host") :]
    assert_nothing_left(document, work_root)


@pytest.mark.usefixtures("can_make_namespaces")
def test_two_app_hosts_serve_behind_the_balancer_on_the_front_host(
    tmp_path: Path, work_root: Path, load_binary: Path
) -> None:
    topology = topology_file(
        tmp_path, FOUR_HOSTS.replace('"db", "cache"', '"app"').replace("data1", "app2")
    )
    done = layerbench(
        "ladder", "--rungs", "string", "--topology", str(topology), *SHORT, cwd=tmp_path,
        work_root=work_root,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    document = json.loads((tmp_path / "ladder.json").read_text())
    assert hosts_by_role(document["rungs"][0]) == {
        "server": {"app1", "app2"},
        "front": {"front1"},
        "client": {"client1"},
    }
    per_host = document["per_host"]
    assert cpu(per_host, "app1", "server", "string") > 0
    assert cpu(per_host, "app2", "server", "string") > 0
    assert_nothing_left(document, work_root)


@pytest.mark.parametrize(
    ("hosts", "arguments", "message"),
    [
        ('[hosts.c]\nroles = ["client"]\n[hosts.a]\nroles = ["app"]\n',
         ["ladder", "--full", "--rungs", "postgres"], "no host with the role db"),
        ('[hosts.a]\nroles = ["app"]\n', ["ladder", "--rungs", "string"],
         "no host with the role client"),
        ('[hosts.c]\nroles = ["client"]\n', ["matrix", "--servers", "gunicorn"],
         "no host with the role app"),
    ],
    ids=["no-db", "no-client", "no-app"],
)  # fmt: skip
@pytest.mark.usefixtures("can_make_namespaces")
def test_a_topology_lacking_a_role_the_run_needs_is_refused_in_one_line(
    tmp_path: Path, work_root: Path, hosts: str, arguments: list[str], message: str
) -> None:
    topology = topology_file(tmp_path, hosts)
    done = layerbench(
        *arguments, "--topology", str(topology), *SHORT, cwd=tmp_path, work_root=work_root
    )
    assert done.returncode == 2, done.stderr
    assert message in done.stderr
    assert len(said(done.stderr).strip().splitlines()) == 1, done.stderr
    assert not list(tmp_path.glob("*.json"))


@pytest.mark.usefixtures("can_make_namespaces")
def test_ctrl_c_mid_run_leaves_no_namespace_and_keeps_finished_rungs(
    tmp_path: Path, work_root: Path, load_binary: Path
) -> None:
    topology = topology_file(tmp_path)
    command = [
        *LAYERBENCH,
        "ladder",
        "--full",
        "--rungs",
        "string,memcached,postgres",
        "--topology",
        str(topology),
        "-d",
        "2",
        "--warmup",
        "0.2",
        "--repeats",
        "1",
    ]
    reaper = subprocess.run(
        [sys.executable, "-m", "tests.reaper", "] memcached", "90", "--", *command],
        capture_output=True, text=True, cwd=tmp_path, timeout=150, check=False,
        env={**os.environ, "PYTHONPATH": str(ROOT), "TMPDIR": str(work_root)},
    )  # fmt: skip
    report = json.loads(reaper.stdout)
    assert report["seen"], report
    assert report["exit"] == 130, report
    assert "layerbench: interrupted" in report["stderr"]
    assert "Traceback" not in report["stderr"]
    assert report["left"] == []
    document = json.loads((tmp_path / "ladder.json").read_text())
    assert document["interrupted"]
    assert [(r["rung"], r["status"]) for r in document["rungs"]][:1] == [("string", "ok")]
    # What was measured is whole: each process's host, and the finished rung's per-host
    # figures, in the file and printed.
    assert hosts_by_role(document["rungs"][0])["server"] == {"app1"}
    per_host = document["per_host"]
    assert {row["host"] for row in per_host} == topology_hosts(document)
    assert cpu(per_host, "app1", "server", "string") > 0
    printed = report["stderr"][report["stderr"].index("per host") :].splitlines()
    assert printed[1].split() == ["host", "address", "roles", "role", "string", "PSS", "MB"]
    assert any(line.startswith("app1 ") for line in printed), printed
    assert_nothing_left(document, work_root)


class StoppedBeforePage(LadderProgress):
    """A run stopped by an error as its page rung starts (a host gone, a service dead...)."""

    def rung_starting(self, rung: Rung, app: str) -> None:
        if rung.name == "page":
            raise LayerbenchError("the page rung's host went away")
        super().rung_starting(rung, app)


@pytest.mark.usefixtures("can_make_namespaces")
def test_a_run_stopped_by_an_error_keeps_its_finished_rungs_per_host_figures(
    tmp_path: Path, load_binary: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    topology = read_topology(
        topology_file(
            tmp_path, '[hosts.client1]\nroles = ["client"]\n[hosts.app1]\nroles = ["app"]\n'
        )
    )
    options = LadderOptions(
        concurrency=4, duration_s=0.5, warmup_s=0.2, repeats=1, rungs=("string", "page")
    )
    results = ResultsFile(tmp_path / "ladder.json")
    with pytest.raises(LayerbenchError, match="went away"):
        run_ladder(options, results, StoppedBeforePage(options, sys.stderr), topology=topology)
    document = json.loads(results.path.read_text())
    assert [(rung["rung"], rung["status"]) for rung in document["rungs"]] == [("string", "ok")]
    assert cpu(document["per_host"], "app1", "server", "string") > 0
    printed = capsys.readouterr().err
    table = printed[printed.index("per host") :].split("\n\n")[0].splitlines()
    assert table[1].split() == ["host", "address", "roles", "role", "string", "PSS", "MB"]
    assert [line.split()[0] for line in table[2:]] == ["client1", "app1"]
