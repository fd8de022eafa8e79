"""A thread inside a host's network: what it starts runs on that host (its pid the server's
own), what it opens is opened there, and it comes back to the machine's own network after."""

import socket
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from layerbench.hosts import netns
from layerbench.hosts.inside import THIS_THREAD, inside
from layerbench.hosts.lab_network import lab_network
from layerbench.hosts.placement import placement_of, start_on
from layerbench.hosts.topology import topology_from
from layerbench.services.memcached import MemcachedService
from tests.e2e.test_hosts import can_make_namespaces  # noqa: F401 (a fixture)

TOPOLOGY = {"hosts": {"client1": {"roles": ["client"]}, "cache1": {"roles": ["cache"]}}}


def memcached_version(host: str, port: int) -> bytes:
    with socket.create_connection((host, port), timeout=2) as connection:
        connection.sendall(b"version\r\n")
        return connection.recv(100)


def network_of_pid(pid: int) -> str:
    return str(Path(f"/proc/{pid}/ns/net").readlink())


@pytest.mark.usefixtures("can_make_namespaces")
def test_a_service_started_inside_a_host_is_reached_from_another_host_only() -> None:
    topology = topology_from(TOPOLOGY, "t")
    cache1, client1 = topology.host("cache1"), topology.host("client1")
    home = THIS_THREAD.readlink()
    with lab_network(topology) as network:
        service = start_on(MemcachedService(), placement_of(network, cache1))
        try:
            assert service.url == f"memcached://{cache1.address}:{service.port}"
            assert THIS_THREAD.readlink() == home, "back in the machine's own network"
            assert network_of_pid(service.pid) != str(home), "the server itself is on cache1"
            with inside(network.namespace(client1)):
                assert memcached_version(str(cache1.address), service.port).startswith(b"VERSION ")
            with pytest.raises(OSError):
                memcached_version(str(cache1.address), service.port)
        finally:
            service.stop()


@pytest.mark.usefixtures("can_make_namespaces")
def test_the_thread_comes_back_when_what_it_did_inside_failed() -> None:
    topology = topology_from(TOPOLOGY, "t")
    home = THIS_THREAD.readlink()
    with lab_network(topology) as network:
        with pytest.raises(ZeroDivisionError), inside(network.namespace("client1")):
            assert THIS_THREAD.readlink() != home
            1 / 0  # noqa: B018
        assert THIS_THREAD.readlink() == home


def test_a_namespace_that_does_not_exist_is_one_line() -> None:
    absent = pytest.raises(netns.NamespaceError, match="no network namespace lbh-absent")
    with absent, inside("lbh-absent"):
        pass


@pytest.mark.usefixtures("can_make_namespaces")
def test_a_service_is_placed_from_a_thread_that_is_not_the_main_one() -> None:
    """The start's check that the server itself holds its port reads the server's own network
    (/proc/PID/net), not the process's main thread's: from another thread it used to find no
    listener and wait for its deadline (seen failing: "answers, but from another process")."""
    topology = topology_from(TOPOLOGY, "t")
    with lab_network(topology) as network, ThreadPoolExecutor(1) as pool:
        placed = placement_of(network, "cache1")
        service = pool.submit(start_on, MemcachedService(start_timeout_s=5), placed).result()
        try:
            with inside(network.namespace("client1")):
                assert memcached_version(placed.address, service.port).startswith(b"VERSION ")
        finally:
            service.stop()
