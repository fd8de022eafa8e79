"""The throwaway backing services: each starts from Debian's binaries, answers a real request at
the URL it hands out, and leaves neither a process nor its directory behind."""

import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import psycopg
import pytest
import redis

from layerbench.errors import ConfigError, LayerbenchError, ServerStartError
from layerbench.proc.outside_resources import recorded, sysv_segments
from layerbench.proc.ports import free_port
from layerbench.services.couchdb_client import CouchdbClient
from layerbench.services.external import check_external
from layerbench.services.mariadb import connect_mariadb
from layerbench.services.memcached import memcached_client
from layerbench.services.memcached_pool import MemcachedPoolService
from layerbench.services.postgres import sysv_segment
from layerbench.services.redis import RedisService, redis_client
from layerbench.services.redis_cluster import RedisClusterService, cluster_client
from layerbench.services.registry import SERVICES
from layerbench.services.service import ManagedService
from layerbench.services.urls import ServiceUrl
from layerbench_sites.app.cache_memcached import MemcachedCache
from tests.conftest import start_service
from tests.service_nodes import alive

pytestmark = pytest.mark.services


def answer(url: str) -> object:
    """A real request through the client library, as the application makes it."""
    kind = ServiceUrl.parse(url).kind
    if kind == "postgres":
        with psycopg.connect(url) as connection:
            row = connection.execute("SELECT current_database(), 6 * 7").fetchone()
            return row
    if kind == "mariadb":
        mariadb = connect_mariadb(url)
        with mariadb, mariadb.cursor() as cursor:
            cursor.execute("SELECT DATABASE(), 6 * 7")
            return cursor.fetchone()
    if kind == "memcached":
        client = memcached_client(url)
        client.set("answer", b"42")
        value = client.get("answer")
        client.close()
        return value
    if kind == "couchdb":
        couchdb = CouchdbClient(url)
        try:
            created, _ = couchdb.request("PUT", "/answers")
            stored, _ = couchdb.request("PUT", "/answers/answer", {"value": 42})
            read, document = couchdb.request("GET", "/answers/answer")
            couchdb.request("DELETE", "/answers")
        finally:
            couchdb.close()
        return created, stored, read, document["value"]
    client = redis_client(url)
    client.set("answer", b"42")
    value = client.get("answer")
    client.close()
    return value


def answer_from(service: ManagedService) -> object:
    """``answer`` through the service's URL; through a cluster client on Redis Cluster (a plain
    client's key may live on another node: MOVED)."""
    if isinstance(service, RedisClusterService):
        client = cluster_client(service.url)
        client.set("answer", b"42")
        value = client.get("answer")
        client.close()
        return value
    if isinstance(service, MemcachedPoolService):  # through the pool's client, the site's
        pool = MemcachedCache(service.url)
        pool.set("answer", b"42")
        value = pool.get("answer")
        pool.close()
        return value
    return answer(service.url)


EXPECTED = {
    "postgres": ("layerbench", 42),
    "mariadb": ("layerbench", 42),
    "memcached": b"42",
    "memcached-pool": b"42",
    "redis": b"42",
    "couchdb": (201, 201, 200, 42),
    "galera": ("layerbench", 42),  # through node 1
    "redis-cluster": b"42",
}
# A 3-node cluster takes 20-30 s to start: its checks here are in make test-wide (make test
# has tests/e2e/test_galera.py, on one cluster).
SERVICE_NAMES = [
    pytest.param(name, marks=pytest.mark.wide) if name == "galera" else name
    for name in sorted(SERVICES)
]


@pytest.mark.parametrize("name", SERVICE_NAMES)
def test_service_answers_then_leaves_nothing(name: str) -> None:
    service = start_service(name)
    try:
        directory = service.directory
        pid = service.pid
        assert directory is not None and directory.is_dir()
        assert {ServiceUrl.parse(url).host for url in service.urls} == {"127.0.0.1"}
        assert answer_from(service) == EXPECTED[name]
        check_external(service.url)
    finally:
        service.stop()
    assert not alive(pid)
    assert not directory.exists()


@pytest.mark.parametrize("name", SERVICE_NAMES)
def test_runs_as_unprivileged_account_when_root(name: str) -> None:
    service = start_service(name)
    try:
        owner = Path(f"/proc/{service.pid}").stat().st_uid
    finally:
        service.stop()
    if os.geteuid() == 0:
        assert owner != 0
    else:
        assert owner == os.geteuid()


@pytest.mark.parametrize("name", SERVICE_NAMES)
def test_a_temporary_directory_only_root_may_write_is_enough(
    name: str, workdir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Started as root, a service runs as nobody, which can pass through the caller's $TMPDIR
    (where its directory is made) but not write there: it keeps its own temporary files in its
    own directory (MariaDB's install failed, writing to $TMPDIR)."""
    if os.geteuid() != 0:
        pytest.skip("the services run as the caller when it is not root")
    temporary = workdir  # root's, 0711: traversable, not writable by others
    monkeypatch.setenv("TMPDIR", str(temporary))
    monkeypatch.setattr(tempfile, "tempdir", str(temporary))
    service = start_service(name)
    try:
        assert service.directory is not None and service.directory.parent == temporary
        assert answer_from(service) == EXPECTED[name]
    finally:
        service.stop()


def test_an_exception_inside_stops_the_service() -> None:
    start_service("redis").stop()  # skips/fails here when redis-server is missing
    service = RedisService()
    with pytest.raises(RuntimeError), service:
        pid = service.pid
        raise RuntimeError("the test body failed")
    assert not alive(pid)


def test_a_server_that_cannot_start_reports_its_log() -> None:
    class BrokenRedis(RedisService):
        def command(self, directory: Path, port: int) -> list[str]:
            return [*super().command(directory, port), "--no-such-option", "yes"]

    start_service("redis").stop()  # skips/fails here when redis-server is missing
    with pytest.raises(ServerStartError) as raised:
        BrokenRedis().start()
    message = str(raised.value)
    assert "redis did not start" in message
    assert "no-such-option" in message


def test_a_taken_port_is_retried_with_another(monkeypatch: pytest.MonkeyPatch) -> None:
    first = start_service("redis")
    try:
        taken = first.port
        ports = iter([taken, 0])

        def next_port(host: str = "127.0.0.1") -> int:
            port = next(ports)
            return port or free_port(host)

        monkeypatch.setattr("layerbench.services.service.free_port", next_port)
        second = RedisService().start()
        try:
            assert second.port != taken
            assert answer(second.url) == b"42"
        finally:
            second.stop()
    finally:
        first.stop()


def test_service_dies_is_noticed() -> None:
    service = start_service("memcached")
    try:
        os.kill(service.pid, signal.SIGKILL)
        deadline = time.monotonic() + 5
        with pytest.raises(LayerbenchError, match="memcached exited unexpectedly"):
            while time.monotonic() < deadline:
                service.check_alive()
                time.sleep(0.02)
    finally:
        service.stop()


def test_a_killed_postgres_leaves_nothing_outside_its_directory() -> None:
    # PostgreSQL killed with SIGKILL left its /dev/shm/PostgreSQL.* segments and a System V
    # segment (attached by no one) for ever. Its dynamic shared memory is in its directory
    # now, and the System V segment is recorded there and released with it.
    service = start_service("postgres")
    try:
        assert service.directory is not None
        data = service.directory / "data"
        with psycopg.connect(service.url) as connection:
            connection.execute("SELECT 1").fetchone()
        assert list((data / "pg_dynshmem").iterdir()), "its dynamic shared memory is in data/"
        segment = sysv_segment(data)
        assert segment is not None
        key, shmid = segment
        assert recorded(service.directory) == [(key, shmid)]
        os.kill(service.pid, signal.SIGKILL)
    finally:
        service.stop()
    present = sysv_segments().get(shmid)
    assert present is None or present[0] != key, "its System V segment outlived it"


@pytest.mark.parametrize(
    "url",
    [
        "ftp://127.0.0.1/",
        "postgresql:///nohost",
        "redis://127.0.0.1:99999/0",
        "redis://h/x",
        # Digits to str.isdigit(), not to int().
        "redis://h/²",
    ],
)
def test_bad_urls_are_config_errors(url: str) -> None:
    with pytest.raises(ConfigError):
        ServiceUrl.parse(url)


def test_check_of_a_closed_port_says_so() -> None:
    with pytest.raises(LayerbenchError, match="does not answer"):
        check_external(f"redis://127.0.0.1:{free_port()}/0")


def test_session_fixtures_hand_out_working_urls(
    postgres_url: str, mariadb_url: str, memcached_url: str, redis_url: str
) -> None:
    for url in (postgres_url, mariadb_url, memcached_url, redis_url):
        kind = ServiceUrl.parse(url).kind
        assert answer(url) == EXPECTED[kind]


def test_cli_up_prints_urls_and_ctrl_c_stops_everything(tmp_path: Path) -> None:
    start_service("redis").stop()
    start_service("memcached").stop()
    with subprocess.Popen(
        [sys.executable, "-m", "layerbench.cli", "services", "up", "redis", "memcached"],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    ) as process:
        try:
            assert process.stdout is not None
            urls = dict(process.stdout.readline().split() for _ in range(2))
            assert set(urls) == {"redis", "memcached"}
            assert answer(urls["redis"]) == b"42"
            # Each server and its watchdog (layerbench.proc.watchdog).
            children = child_pids(process.pid)
            watchdogs = [pid for pid in children if b"watchdog" in command_of(pid)]
            assert (len(children), len(watchdogs)) == (4, 2)
            process.send_signal(signal.SIGINT)
            assert process.wait(timeout=20) == 130
        finally:
            if process.poll() is None:
                process.kill()
                process.wait()
    for pid in children:
        assert not alive(pid)
    with pytest.raises(redis.RedisError):
        redis.Redis.from_url(urls["redis"], socket_connect_timeout=1).ping()


def child_pids(parent: int) -> list[int]:
    return [
        pid
        for pid in (int(entry.name) for entry in Path("/proc").iterdir() if entry.name.isdigit())
        if parent_of(pid) == parent
    ]


def command_of(pid: int) -> bytes:
    return Path(f"/proc/{pid}/cmdline").read_bytes()


def parent_of(pid: int) -> int | None:
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return int(fields[1])


def test_cli_bad_service_name_is_one_line() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "layerbench.cli", "services", "up", "oracle"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 2  # a usage error
    assert done.stderr.strip().count("\n") == 0
    assert "no service named 'oracle'" in done.stderr


def test_every_service_has_a_class_per_module() -> None:
    assert all(issubclass(cls, ManagedService) for cls in SERVICES.values())
    assert set(SERVICES) == {
        "postgres", "mariadb", "memcached", "redis", "couchdb", "galera", "redis-cluster",
        "memcached-pool",
    }  # fmt: skip
