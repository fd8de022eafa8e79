"""A topology's subnet is accepted exactly as its message says, inside 10/8, 172.16/12 or
192.168/16 (``is_private`` had let loopback, link-local, reserved and documentation ranges
through, and a host was given the machine's own eth0 address), and never where this machine's
own network is; ``10.99.0.1/32`` was a TypeError."""

import ipaddress

import pytest

from layerbench.errors import ConfigError
from layerbench.hosts import topology
from layerbench.hosts.netns import machine_networks
from layerbench.hosts.topology import topology_from

ONE_HOST = {"hosts": {"a": {"roles": ["app"]}}}


@pytest.mark.parametrize(
    "subnet", ["127.0.0.0/24", "0.0.0.0/8", "169.254.0.0/16", "240.0.0.0/4", "192.0.2.0/24",
               "100.64.0.0/10", "172.32.0.0/16", "8.8.8.0/24"],
)  # fmt: skip
def test_a_subnet_outside_the_private_ranges_is_refused(subnet: str) -> None:
    with pytest.raises(ConfigError) as refused:
        topology_from({"subnet": subnet, **ONE_HOST}, "t.toml")
    assert str(refused.value) == (
        f"t.toml: subnet {subnet} is not a private range (10/8, 172.16/12, 192.168/16)"
    )


@pytest.mark.parametrize("subnet", ["10.99.0.0/24", "172.31.5.0/24", "192.168.200.0/28"])
def test_a_private_subnet_is_accepted(subnet: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(topology, "machine_networks", list)
    hosts = topology_from({"subnet": subnet, **ONE_HOST}, "t.toml").hosts
    assert hosts[0].address in ipaddress.IPv4Network(subnet)


def test_a_subnet_of_one_address_is_its_one_host(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(topology, "machine_networks", list)
    one = topology_from({"subnet": "10.99.0.1/32", **ONE_HOST}, "t.toml")
    assert [str(host.address) for host in one.hosts] == ["10.99.0.1"]
    two = {"subnet": "10.99.0.1/32", "hosts": {"a": {"roles": ["app"]}, "b": {"roles": ["db"]}}}
    with pytest.raises(ConfigError, match="too few addresses"):
        topology_from(two, "t.toml")


@pytest.mark.parametrize("value", [10, ["10.77.0.0/24"], "10.77.0.1/24", "nonsense"])
def test_a_subnet_that_is_not_one_is_refused_in_one_line(value: object) -> None:
    with pytest.raises(ConfigError, match=r"^t\.toml: subnet") as refused:
        topology_from({"subnet": value, **ONE_HOST}, "t.toml")
    assert "\n" not in str(refused.value)


def test_a_subnet_overlapping_the_machines_network_is_refused(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    mine = [ipaddress.IPv4Network("10.77.0.0/16"), ipaddress.IPv4Network("192.168.1.7/32")]
    monkeypatch.setattr(topology, "machine_networks", lambda: mine)
    for subnet, taken in (("10.77.3.0/24", "10.77.0.0/16"), ("192.168.1.0/24", "192.168.1.7/32")):
        with pytest.raises(ConfigError) as refused:
            topology_from({"subnet": subnet, **ONE_HOST}, "t.toml")
        assert str(refused.value) == (
            f"t.toml: subnet {subnet} overlaps this machine's own network ({taken}): "
            "choose a subnet it does not use"
        )
    assert topology_from({"subnet": "10.78.0.0/24", **ONE_HOST}, "t.toml").hosts


def test_the_machines_networks_are_its_addresses_and_routes() -> None:
    found = machine_networks()
    assert ipaddress.IPv4Network("127.0.0.0/8") in found  # lo's address
    assert ipaddress.IPv4Network("0.0.0.0/0") not in found  # the default route is not one


@pytest.mark.parametrize("roles", [[["app"]], [{"app": 1}], ["app", "app"], [1]])
def test_roles_that_are_not_names_once_each_are_refused_in_one_line(
    roles: list[object], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``roles = [["app"]]`` was a TypeError (unhashable type: 'list')."""
    monkeypatch.setattr(topology, "machine_networks", list)
    with pytest.raises(ConfigError) as refused:
        topology_from({"hosts": {"a": {"roles": roles}}}, "t.toml")
    assert str(refused.value) == (
        "t.toml: host a: roles must be a list of client, front, app, db, cache, each once"
    )
