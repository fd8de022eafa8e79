"""A pool of memcached servers (issue 26) with the page cache on it: keys spread over every
node by the client's rendezvous hashing, each on exactly one; a stopped node's keys miss while
the others' still hit, and the site serves every page (no error page); the pool's nodes on hosts
of the lab's network, reached from an app host; URL mistakes in one line."""

import os
import select
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import IO

import pytest
from pymemcache.client.base import Client

from layerbench.errors import ConfigError, MissingBinaryError, ServerDiedError
from layerbench.hosts.inside import NAMED_NAMESPACES
from layerbench.hosts.lab_network import lab_network
from layerbench.hosts.placement import placement_of
from layerbench.hosts.topology import topology_from
from layerbench.proc.ports import LOOPBACK
from layerbench.rungs.sqlite_file import create_seeded_database
from layerbench.services.memcached_pool import MemcachedPoolService
from layerbench.services.urls import ServiceUrl
from layerbench_sites.app.app_config import AppConfig
from layerbench_sites.app.cache_check import check_cache_usable
from layerbench_sites.app.cache_memcached import MemcachedCache
from layerbench_sites.app.cache_select import cache_from_url
from layerbench_sites.datalayer.open_repository import prepare
from tests.app_server import serve
from tests.conftest import missing, start_service
from tests.e2e.test_hosts import can_make_namespaces  # noqa: F401 (a fixture)
from tests.service_nodes import leaving_nothing

pytestmark = pytest.mark.services

KEYS = 300


def started_pool() -> Iterator[MemcachedPoolService]:
    service = start_service("memcached-pool")
    assert isinstance(service, MemcachedPoolService)
    with leaving_nothing(service):
        yield service


@pytest.fixture(scope="module")
def shared_pool() -> Iterator[MemcachedPoolService]:
    """A pool of 3 for the tests that leave its nodes running."""
    yield from started_pool()


@pytest.fixture
def pool() -> Iterator[MemcachedPoolService]:
    """A pool of 3 of the test's own (it stops one of the nodes)."""
    yield from started_pool()


def holders(service: MemcachedPoolService, keys: list[str]) -> list[set[str]]:
    """For each node, the keys it holds, asked of it alone."""
    held = []
    for url in service.urls:
        parsed = ServiceUrl.parse(url)
        node = Client((parsed.host, parsed.port), connect_timeout=2, timeout=2)
        try:
            held.append(set(node.get_many(keys)))
        finally:
            node.close()
    return held


def stop_node(service: MemcachedPoolService, number: int) -> None:
    """Node ``number`` killed, as a server that fails, and seen gone."""
    pid = service.pids[number - 1]
    os.kill(pid, signal.SIGKILL)
    deadline = time.monotonic() + 10
    while True:
        try:
            service.check_alive()
        except ServerDiedError as error:
            assert f"node{number}" in str(error)
            return
        assert time.monotonic() < deadline, f"node {number} did not exit"
        time.sleep(0.05)


def test_the_pool_url_names_every_node(shared_pool: MemcachedPoolService) -> None:
    urls = shared_pool.urls
    assert len(urls) == 3 and len(set(urls)) == 3
    assert shared_pool.url == "memcached://" + ",".join(u.split("//")[1] for u in urls)
    assert len(set(shared_pool.pids)) == 3


def test_keys_spread_over_every_node_each_on_exactly_one(
    shared_pool: MemcachedPoolService,
) -> None:
    keys = [f"page:{number}" for number in range(KEYS)]
    cache = MemcachedCache(shared_pool.url)
    try:
        for key in keys:
            cache.set(key, key.encode())
        assert cache.get_many(keys) == [key.encode() for key in keys]
    finally:
        cache.close()
    held = holders(shared_pool, keys)
    print(f"\n{KEYS} keys on 3 nodes: {[len(on_node) for on_node in held]}")
    assert all(len(on_node) > KEYS // 6 for on_node in held)  # rendezvous: about a third each
    assert sum(len(on_node) for on_node in held) == KEYS
    assert set().union(*held) == set(keys)


def test_a_stopped_node_s_keys_miss_and_the_others_still_hit(pool: MemcachedPoolService) -> None:
    keys = [f"page:{number}" for number in range(KEYS)]
    cache = MemcachedCache(pool.url)
    try:
        for key in keys:
            cache.set(key, key.encode())
        on_node_3 = holders(pool, keys)[2]
        stop_node(pool, 3)
        found = {key: cache.get(key) for key in keys}
        assert [key for key in keys if found[key] is None] == sorted(on_node_3, key=keys.index)
        assert all(found[key] == key.encode() for key in keys if key not in on_node_3)
        many = cache.get_many(keys)
        assert [key for key, value in zip(keys, many, strict=True) if value is None] == [
            key for key in keys if key in on_node_3
        ]
    finally:
        cache.close()


def test_the_site_serves_every_page_with_a_node_stopped(
    pool: MemcachedPoolService, tmp_path: Path
) -> None:
    database = str(tmp_path / "site.sqlite3")
    prepare(database)
    settings = AppConfig(db_path=create_seeded_database(tmp_path), database_url=database)
    cache = MemcachedCache(pool.url)
    try:
        with serve(settings, cache) as site:
            paths = [
                site.request(
                    "POST", "/videos", {"title": f"v{n}", "url": "https://example.org/v"}
                ).headers["location"]
                for n in range(30)
            ]
            assert {site.request("GET", path).status for path in paths} == {200}
            assert [site.request("GET", path).headers["x-cache"] for path in paths] == ["hit"] * 30
            stop_node(pool, 3)
            replies = [site.request("GET", path) for path in paths]
    finally:
        cache.close()
    assert {reply.status for reply in replies} == {200}
    served = [reply.headers["x-cache"] for reply in replies]
    print(f"\nwith node 3 stopped: {served.count('hit')} hits, {served.count('miss')} misses")
    assert served.count("hit") > 0 and served.count("miss") > 0
    assert set(served) == {"hit", "miss"}


def test_a_pool_with_a_node_that_does_not_answer_is_refused_in_one_line(
    pool: MemcachedPoolService,
) -> None:
    stop_node(pool, 2)
    with pytest.raises(ConfigError) as refused:
        check_cache_usable(pool.url)
    assert pool.urls[1] in str(refused.value) and "\n" not in str(refused.value)


@pytest.mark.parametrize(
    ("url", "says"),
    [
        ("memcached://127.0.0.1:1,,127.0.0.1:2", "a node is HOST:PORT"),
        ("memcached://127.0.0.1:1,127.0.0.1:x", "a port from 1 to 65535, not '127.0.0.1:x'"),
        ("memcached://127.0.0.1:1,127.0.0.1:1", "names a node twice"),
        ("memcached://127.0.0.1:1,127.0.0.1:2/db", "memcached://HOST:PORT[,HOST:PORT…] alone"),
    ],
)
def test_pool_url_mistakes_are_one_line(url: str, says: str) -> None:
    with pytest.raises(ConfigError) as refused:
        cache_from_url(url)
    assert says in str(refused.value) and "\n" not in str(refused.value)


def test_app_serve_refuses_a_pool_url_mistake_with_a_usage_error(tmp_path: Path) -> None:
    db, cache = str(tmp_path / "x.db"), "memcached://127.0.0.1:1,,127.0.0.1:2"
    done = subprocess.run(
        [sys.executable, "-m", "layerbench.cli", "app", "serve", "--db", db, "--cache", cache],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 2, done.stderr
    assert done.stderr.strip().count("\n") == 0 and "a node is HOST:PORT" in done.stderr


@pytest.mark.usefixtures("can_make_namespaces")
def test_a_pool_on_two_cache_hosts_serves_an_app_host() -> None:
    topology = topology_from(
        {
            "hosts": {
                "cache1": {"roles": ["cache"]},
                "cache2": {"roles": ["cache"]},
                "app1": {"roles": ["app"]},
            }
        },
        "t",
    )
    keys = [f"page:{number}" for number in range(100)]
    with lab_network(topology) as network:
        placements = [placement_of(network, name) for name in ("cache1", "cache2")]
        service = MemcachedPoolService(placements=placements)
        try:
            service.start()
        except MissingBinaryError as error:
            missing(str(error))
        with leaving_nothing(service):
            assert [ServiceUrl.parse(url).host for url in service.urls] == [
                placement.address for placement in placements
            ]
            assert [Path(f"/proc/{pid}/ns/net").stat().st_ino for pid in service.pids] == [
                (NAMED_NAMESPACES / str(placement.namespace)).stat().st_ino
                for placement in placements
            ]
            with placement_of(network, "app1").entered():
                cache = MemcachedCache(service.url)
                try:
                    for key in keys:
                        cache.set(key, key.encode())
                    assert cache.get_many(keys) == [key.encode() for key in keys]
                finally:
                    cache.close()
                held = holders(service, keys)
            assert all(held) and sum(map(len, held)) == len(keys)


def line_within(stream: IO[bytes], timeout_s: float) -> str:
    """The next line of an unbuffered stream, or an AssertionError when none comes within
    ``timeout_s``."""
    ready, _, _ = select.select([stream], [], [], timeout_s)
    assert ready, f"no line within {timeout_s} s"
    return stream.readline().decode()


def test_services_up_prints_each_node_then_the_pool_and_ctrl_c_stops_them() -> None:
    start_service("memcached-pool").stop()  # skips/fails here when memcached is missing
    with subprocess.Popen(
        [sys.executable, "-m", "layerbench.cli", "services", "up", "memcached-pool"],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        bufsize=0,  # each line read as it comes: select() sees no buffered line
    ) as process:
        try:
            assert process.stdout is not None
            lines = [line_within(process.stdout, 30).split() for _ in range(4)]
            assert {name for name, _ in lines} == {"memcached-pool"}
            *nodes, pool_url = [url for _, url in lines]
            assert pool_url == "memcached://" + ",".join(url.split("//")[1] for url in nodes)
            cache = MemcachedCache(pool_url)
            try:
                cache.set("answer", b"42")
                assert cache.get("answer") == b"42"
            finally:
                cache.close()
            process.send_signal(signal.SIGINT)
            assert process.wait(timeout=20) == 130
        finally:
            if process.poll() is None:
                process.kill()
                process.wait()
    with pytest.raises(ConfigError, match="does not answer"):
        check_cache_usable(pool_url)


class PoolWithNode2sPortTaken(MemcachedPoolService):
    """A pool whose first choice of ports finds node 2's taken when node 2 starts (held by
    ``holder``, a listener of the test's), as a run starting at once may take it: the ports are
    chosen free, but node 2 starts only once node 1 is up."""

    def __init__(self, holder: socket.socket) -> None:
        super().__init__()
        self.holder = holder
        self.first_choice: list[int] = []

    def choose_port(self) -> int:
        port = super().choose_port()
        if not self.first_choice:
            self.first_choice = list(self.node_ports)
            self.holder.bind((LOOPBACK, self.node_ports[1]))
            self.holder.listen()
        return port


def test_a_node_whose_port_was_taken_meanwhile_starts_on_other_ports() -> None:
    with socket.socket() as holder:
        pool = PoolWithNode2sPortTaken(holder)
        try:
            pool.start()
        except MissingBinaryError as error:
            missing(str(error))
        with leaving_nothing(pool):
            assert pool.first_choice[1] not in pool.node_ports
            cache = MemcachedCache(pool.url)
            try:
                cache.set("answer", b"42")
                assert cache.get("answer") == b"42"
            finally:
                cache.close()
