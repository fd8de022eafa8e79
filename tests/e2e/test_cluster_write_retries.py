"""The cluster's HTTP writers' re-try path, exercised for real: writers PUT videos, comments and
edits through nginx (least_conn, no next upstream: a request an app host failed is answered
502, not passed on) over two gunicorn app hosts on one MariaDB, all on loopback; once the
writes are under way app host 2's server is killed (SIGKILL to its process group, by its PID).
Its requests in flight and the next one nginx sends it fail; the writers send each again and
the surviving host writes it. Asserted: the client re-tried, gave up nothing, and every write
is in the database exactly once with exactly one audit row (nothing lost, nothing doubled)."""

import contextlib
import os
import signal
import threading
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass

import pytest

from layerbench.cluster.cluster_http_check import http_writers_row, off_by_at_most
from layerbench.cluster.cluster_http_writes import HttpWrites, run_http_writers
from layerbench.cluster.cluster_writes import causal_query
from layerbench.proc.ports import free_port
from layerbench.rungs.sqlite_file import create_seeded_database
from layerbench.servers.gunicorn import GunicornServer, GunicornSettings
from layerbench.servers.nginx_balancer import NginxBalancer
from layerbench_sites.app.app_config import DATABASE_URL_VARIABLE
from layerbench_sites.datalayer.open_repository import prepare
from tests.datalayer_backends import empty_mariadb_database

pytestmark = pytest.mark.services

WRITERS = 3
WRITES_EACH = 40
EDIT_EVERY = 4
# Writes committed (audit rows) before app host 2 is killed: both hosts have answered by then.
KILL_AFTER_WRITES = 15
KILL_LIMIT_S = 30.0


@dataclass(frozen=True)
class Killed:
    writes: HttpWrites
    url: str
    upstreams: list[str]
    killed_after: int  # audit rows there when app host 2 was killed


def audit_rows(url: str) -> int:
    ((count,),) = causal_query(url, "SELECT count(*) FROM history")
    return int(count)


def kill_when_written(url: str, server: GunicornServer, done: threading.Event) -> list[int]:
    """Kills ``server``'s process group once KILL_AFTER_WRITES writes are in the database;
    returns how many there were then (nothing if the writers ended first)."""
    deadline = time.monotonic() + KILL_LIMIT_S
    while not done.is_set() and time.monotonic() < deadline:
        written = audit_rows(url)
        if written >= KILL_AFTER_WRITES:
            os.killpg(server.session, signal.SIGKILL)
            return [written]
        time.sleep(0.01)
    return []


@pytest.fixture(scope="module")
def killed_mid_run(mariadb_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Killed]:
    url, drop = empty_mariadb_database(mariadb_url)
    workdir = tmp_path_factory.mktemp("retries")
    try:
        prepare(url)
        with contextlib.ExitStack() as stack:
            servers = []
            for name in ("app1", "app2"):
                (workdir / name).mkdir()
                server = GunicornServer(
                    workdir / name,
                    free_port(),
                    create_seeded_database(workdir / name),
                    GunicornSettings(workers=1, worker_class="gthread", threads=4),
                    app_environment={DATABASE_URL_VARIABLE: url},
                )
                servers.append(stack.enter_context(server))
            upstreams = [f"127.0.0.1:{server.port}" for server in servers]
            balancer = NginxBalancer(workdir / "nginx", free_port(), upstreams, next_upstream=False)
            stack.enter_context(balancer)
            done = threading.Event()
            killed: list[int] = []
            killer = threading.Thread(
                target=lambda: killed.extend(kill_when_written(url, servers[1], done))
            )
            killer.start()
            try:
                writes = run_http_writers(
                    balancer.base_url, WRITERS, WRITES_EACH, EDIT_EVERY, contextlib.nullcontext
                )
            finally:
                done.set()
                killer.join()
            assert killed, f"the writers were done before {KILL_AFTER_WRITES} writes"
            yield Killed(writes, url, upstreams, killed[0])
    finally:
        drop()


def test_writes_failed_by_a_killed_app_host_are_re_tried(killed_mid_run: Killed) -> None:
    tally = killed_mid_run.writes.tally
    assert tally.client_retries > 0, tally
    assert tally.gave_up == 0, tally
    assert tally.writes == WRITERS * WRITES_EACH, tally
    # Both hosts answered; nginx answered the failed ones (502) naming app host 2.
    assert set(tally.served) == set(killed_mid_run.upstreams), tally.served


def test_nothing_lost_nothing_doubled_every_audit_row_once(killed_mid_run: Killed) -> None:
    writes, url = killed_mid_run.writes, killed_mid_run.url
    row = http_writers_row(writes, WRITERS, 1, [url])
    assert (row.rows_lost, row.rows_doubled) == (0, 0), row
    assert (row.audit_rows_lost, row.audit_rows_doubled) == (0, 0), row
    assert row.id_collisions == 0, row
    tally = writes.tally
    # Every committed comment is one row on the shared video, no other row besides.
    ((comments,),) = causal_query(url, "SELECT count(*) FROM comments")
    assert comments == len(tally.comments) > 0
    ((inserts,),) = causal_query(
        url, "SELECT count(*) FROM history WHERE operation = 'insert' AND table_name = 'videos'"
    )
    assert inserts == len(tally.video_ids) + 1  # and the shared video
    # One audit row a write and the shared video's insert; an edit sent again may have been made
    # again (another writer's edit between its sendings), never more than once a sending.
    resent_edits = sum(sent - 1 for sent in tally.edits.values())
    assert tally.writes + 1 <= audit_rows(url) <= tally.writes + 1 + resent_edits


def test_an_edit_is_checked_once_a_sending_at_most() -> None:
    expected = {"sent once": 1, "sent twice": 2, "lost": 3}
    found = Counter({"sent once": 2, "sent twice": 2})
    assert off_by_at_most(expected, found) == (1, 1)
    assert off_by_at_most(expected, found + Counter({"sent twice": 1, "lost": 3})) == (0, 2)
