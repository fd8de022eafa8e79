"""A topology file read as its typed schema (layerbench/hosts/topology.py's TopologyFile, each
host's table by its kind): a value of the wrong type is one line naming the file and the
field, where it was a TypeError or an error naming no field."""

import pytest

from layerbench.errors import ConfigError
from layerbench.hosts import topology
from layerbench.hosts.topology import topology_from


@pytest.mark.parametrize(
    ("document", "message"),
    [
        ({"subnet": 10, "hosts": {"a": {"roles": ["app"]}}}, "t.toml: subnet is a string, not 10"),
        ({"hosts": ["a"]}, "t.toml: hosts is an object, not a list"),
        ({"hosts": {"a": "app"}}, 't.toml: host a is an object, not "app"'),
        (
            {"ssh_config": ["x"], "hosts": {"a": {"roles": ["app"]}}},
            "t.toml: ssh_config is a string, not a list",
        ),
        (
            {"hosts": {"a": {"roles": []}}},
            "t.toml: host a: roles must be a list of client, front, app, db, cache, each once",
        ),
        (
            {"hosts": {"far": {"roles": ["client"], "ssh": "u@h", "load_binary": 1}}},
            "t.toml: host far: load_binary is a string, not 1",
        ),
        (
            {"hosts": {"far": {"roles": ["web"], "ssh": "u@h"}}},
            "t.toml: host far: roles must be a list of client, front, app, db, cache, each once",
        ),
    ],
)
def test_a_field_of_the_wrong_type_is_one_line_naming_it(
    document: dict[str, object], message: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(topology, "machine_networks", list)
    with pytest.raises(ConfigError) as refused:
        topology_from(document, "t.toml")
    assert str(refused.value) == message


def test_a_topology_reads_into_its_hosts_in_the_file_s_order(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(topology, "machine_networks", list)
    document = {
        "subnet": "10.9.0.0/24",
        "hosts": {
            "db1": {"roles": ["db", "cache"]},
            "far": {"roles": ["client"], "ssh": "u@far:2222"},
            "client1": {"roles": ["client"]},
        },
    }
    read = topology_from(document, "t.toml")
    assert [(h.name, h.roles, str(h.address)) for h in read.hosts] == [
        ("db1", ("db", "cache"), "10.9.0.1"),
        ("client1", ("client",), "10.9.0.2"),
    ]
    assert [(h.name, h.destination, h.port) for h in read.ssh_hosts] == [("far", "u@far", 2222)]
