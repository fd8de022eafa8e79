"""``layerbench mix --topology FILE`` end to end, as root on real namespaces, as ladder's: the
server under test on the app host, the load (the hit, the miss and their mix) from every client
host at once and merged, every process sampled with its host, the per-host table; nothing left
after; a topology lacking a role refused in one line."""

import json
from pathlib import Path

import pytest

from tests.e2e.test_hosts import can_make_namespaces  # noqa: F401 (a fixture)
from tests.e2e.test_topology_runs import (
    SHORT,
    assert_nothing_left,
    cpu,
    hosts_by_role,
    layerbench,
    topology_file,
    work_root,  # noqa: F401 (a fixture)
)

TWO_CLIENTS = """
[hosts.client1]
roles = ["client"]
[hosts.client2]
roles = ["client"]
[hosts.app1]
roles = ["app"]
"""
RUNGS = ["cached-page", "page", "mix-50"]


@pytest.mark.usefixtures("can_make_namespaces")
def test_a_mix_on_a_topology_loads_from_every_client_host(
    tmp_path: Path,
    work_root: Path,  # noqa: F811 (the fixture)
    load_binary: Path,
) -> None:
    topology = topology_file(tmp_path, TWO_CLIENTS)
    done = layerbench(
        "mix", "--hit", "0.5", "--topology", str(topology), "-c", "4", *SHORT, cwd=tmp_path,
        work_root=work_root,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    document = json.loads((tmp_path / "mix.json").read_text())
    assert [rung["rung"] for rung in document["rungs"]] == RUNGS
    for rung in document["rungs"]:
        assert hosts_by_role(rung) == {"server": {"app1"}, "client": {"client1", "client2"}}
    # The two clients' loads merged: each one's document listed, both URLs of the mix.
    mixed = document["rungs"][2]["load"]
    assert len(mixed["clients"]) == 2
    assert [url["path"] for url in mixed["by_url"]] == ["/v/hello-world", "/ladder/page"]
    assert document["mix"]["measured_hit_share"] == pytest.approx(0.5, abs=0.02)
    per_host = document["per_host"]
    assert {row["host"] for row in per_host} == {"client1", "client2", "app1"}
    assert all(cpu(per_host, "app1", "server", rung) > 0 for rung in RUNGS), per_host
    # The per-host table after the mix's, before the prediction.
    table = done.stdout[done.stdout.index("per host") : done.stdout.index("\n\nmix: ")]
    assert [line.split()[0] for line in table.splitlines()[2:]] == ["client1", "client2", "app1"]
    assert_nothing_left(document, work_root)


@pytest.mark.usefixtures("can_make_namespaces")
def test_a_mix_on_a_topology_without_a_client_host_is_refused_in_one_line(
    tmp_path: Path,
    work_root: Path,  # noqa: F811 (the fixture)
) -> None:
    topology = topology_file(tmp_path, '[hosts.a]\nroles = ["app"]\n')
    done = layerbench(
        "mix", "--hit", "0.9", "--topology", str(topology), *SHORT, cwd=tmp_path,
        work_root=work_root,
    )  # fmt: skip
    assert done.returncode == 2, done.stderr
    assert done.stderr.strip().splitlines() == [
        "layerbench: error: the topology has no host with the role client, which this run needs"
    ]
    assert not list(tmp_path.glob("*.json"))
