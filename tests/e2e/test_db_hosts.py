"""The databases on hosts of the lab's network (issue 26), reached from an app host's address:
a MariaDB on a db host; a Galera cluster with node N inside host dbN's namespace on dbN's
address, the three synced over the bridge and set up as ``--set galera.…`` says, a row written
through node 1 read back from node 3 (a causal read).
Stopped, nothing is left: no node's process, no directory, no namespace."""

from pathlib import Path

import pytest

from layerbench.errors import MissingBinaryError
from layerbench.hosts import netns
from layerbench.hosts.inside import NAMED_NAMESPACES
from layerbench.hosts.lab_network import lab_network
from layerbench.hosts.placement import placement_of, start_on
from layerbench.hosts.topology import topology_from
from layerbench.lab.service_settings import service_arguments
from layerbench.services.galera import GaleraService, cluster_state
from layerbench.services.mariadb import MariadbService, connect_mariadb
from layerbench.services.urls import ServiceUrl
from tests.conftest import missing
from tests.e2e.test_hosts import can_make_namespaces  # noqa: F401 (a fixture)
from tests.service_nodes import leaving_nothing

pytestmark = pytest.mark.services

TOPOLOGY = {
    "hosts": {
        "db1": {"roles": ["db"]},
        "db2": {"roles": ["db"]},
        "db3": {"roles": ["db"]},
        "app1": {"roles": ["app"]},
    }
}


def network_of(pid: int) -> int:
    return Path(f"/proc/{pid}/ns/net").stat().st_ino


def execute(url: str, *statements: str) -> list[tuple[object, ...]]:
    """The last statement's rows, every statement run on one connection to ``url``."""
    connection = connect_mariadb(url)
    with connection, connection.cursor() as cursor:
        for statement in statements:
            cursor.execute(statement)
        return list(cursor.fetchall())


@pytest.mark.usefixtures("can_make_namespaces")
def test_nodes_on_three_db_hosts_serve_an_app_host() -> None:
    topology = topology_from(TOPOLOGY, "t")
    with lab_network(topology) as network:
        placements = [placement_of(network, f"db{number}") for number in (1, 2, 3)]
        # Settings as ``--set galera.…`` gives them.
        settings = {"wsrep_sync_wait": "1", "wsrep_slave_threads": "2", "profile": "seed003"}
        arguments = service_arguments({"galera": settings}, "galera")
        service = GaleraService(placements=placements, **arguments)
        try:
            service.start()
        except MissingBinaryError as error:
            missing(str(error))
        with leaving_nothing(service):
            assert [ServiceUrl.parse(url).host for url in service.urls] == [
                placement.address for placement in placements
            ]
            assert [network_of(pid) for pid in service.pids] == [
                (NAMED_NAMESPACES / placement.namespace).stat().st_ino
                for placement in placements
                if placement.namespace is not None
            ]
            with placement_of(network, "app1").entered():
                assert [cluster_state(url) for url in service.urls] == [None, None, None]
                variables = (
                    "SELECT @@wsrep_sync_wait, @@wsrep_slave_threads, @@innodb_buffer_pool_size"
                )
                assert [execute(url, variables) for url in service.urls] == [
                    [(1, 2, 256 * 1024 * 1024)]
                ] * 3
                execute(
                    service.urls[0],
                    "CREATE TABLE notes (id INT PRIMARY KEY, note TEXT)",
                    "INSERT INTO notes VALUES (1, 'written on db1')",
                )
                # A causal read (galera.wsrep_sync_wait=1): node 3 has applied the insert first.
                read = execute(service.urls[2], "SELECT note FROM notes")
                assert read == [("written on db1",)]
        namespaces = network.namespaces()
    assert set(namespaces) & set(netns.namespaces()) == set()


@pytest.mark.usefixtures("can_make_namespaces")
def test_mariadb_on_a_db_host_serves_an_app_host() -> None:
    topology = topology_from(TOPOLOGY, "t")
    with lab_network(topology) as network:
        service = MariadbService()
        try:
            start_on(service, placement_of(network, "db1"))
        except MissingBinaryError as error:
            missing(str(error))
        with leaving_nothing(service), placement_of(network, "app1").entered():
            assert ServiceUrl.parse(service.url).host == str(topology.host("db1").address)
            rows = execute(service.url, "SELECT SUBSTRING_INDEX(USER(), '@', -1)")
            assert rows == [(str(topology.host("app1").address),)]
