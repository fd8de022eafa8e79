"""The answer to a write says how many times its transaction was begun (``X-Write-Attempts``):
1 for a write that went through at once, more for one the database gave up for another (error
1213, a deadlock; under Galera a certification conflict) and the repository ran again. The
deadlock is MariaDB's own (a throwaway server): two PUTs of the same new id wait behind a third
transaction's uncommitted insert of it, which then rolls back; InnoDB gives one of them up."""

import json
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator

import pytest

from layerbench_sites.app.api.openapi import document
from layerbench_sites.datalayer.entities import VIDEOS_V3
from layerbench_sites.datalayer.open_repository import open_repository
from layerbench_sites.ids.codec import decode
from layerbench_sites.ids.generate import new_id
from tests.app_serve_process import Serving, app_serve
from tests.datalayer_backends import empty_mariadb_database

HEADER = "X-Write-Attempts"
VIDEO = {"title": "one video", "url": "https://example.org/v"}
WAITERS = 2
WAIT_LIMIT_S = 30.0


class RollBackError(Exception):
    """Ends the blocking transaction (it rolls back)."""


def send(url: str, method: str, document: object = None) -> tuple[int, str | None]:
    """The answer's status and its X-Write-Attempts header (None when it has none)."""
    body = None if document is None else json.dumps(document).encode()
    request = urllib.request.Request(
        url, data=body, method=method, headers={"Content-Type": "application/json"}
    )
    try:
        with urllib.request.urlopen(request, timeout=60) as answer:
            answer.read()
            return answer.status, answer.headers.get(HEADER)
    except urllib.error.HTTPError as error:
        error.read()
        return error.code, error.headers.get(HEADER)


@pytest.fixture(scope="module")
def mariadb_site(mariadb_url: str) -> Iterator[tuple[Serving, str]]:
    url, drop = empty_mariadb_database(mariadb_url)
    try:
        options = ["--db", url, "--cache", "none", "--workers", "1", "--threads", "4"]
        with app_serve(*options, "--no-demo-data") as serving:
            yield serving, url
    finally:
        drop()


@pytest.mark.services
def test_a_write_that_went_through_at_once_took_one_attempt_and_a_read_none(
    mariadb_site: tuple[Serving, str],
) -> None:
    serving, _ = mariadb_site
    assert send(f"{serving.base_url}/videos", "POST", VIDEO) == (201, "1")
    assert send(f"{serving.base_url}/videos", "GET") == (200, None)


def server_rows(url: str, sql: str) -> list[tuple[object, ...]]:
    repository = open_repository(url)
    try:
        cursor = repository.connection.cursor()
        cursor.execute(sql)
        return list(cursor.fetchall())
    finally:
        repository.connection.close()


def inserts_waiting(url: str) -> int:
    """Sessions on the database in an INSERT (the PUTs' own or their triggers'): with the
    holder's row uncommitted, each is waiting for it. (``innodb_trx``'s LOCK WAIT state was
    seen missing for such a session.)"""
    sql = (
        "SELECT COUNT(*) FROM information_schema.processlist WHERE db = DATABASE()"
        " AND command = 'Query' AND info LIKE 'INSERT INTO %'"
    )
    ((waiting,),) = server_rows(url, sql)
    return int(str(waiting))


@pytest.mark.services
def test_a_write_given_up_for_a_deadlock_says_it_took_more_attempts(
    mariadb_site: tuple[Serving, str],
) -> None:
    serving, url = mariadb_site
    identifier = new_id()
    answers: list[tuple[int, str | None]] = []

    def put() -> None:
        answers.append(send(f"{serving.base_url}/videos/{identifier}", "PUT", VIDEO))

    holder = open_repository(url)
    threads = [threading.Thread(target=put) for _ in range(WAITERS)]
    try:
        with pytest.raises(RollBackError), holder.transaction("holder") as cursor:
            values = {"title": "held", "url": None, "description": None}
            holder.insert_row(cursor, VIDEOS_V3, decode(identifier), None, values)
            for thread in threads:
                thread.start()
            deadline = time.monotonic() + WAIT_LIMIT_S
            while inserts_waiting(url) < WAITERS:
                if time.monotonic() > deadline:
                    sessions = server_rows(url, "SHOW PROCESSLIST")
                    raise AssertionError(f"no PUT waited: {answers}; {sessions}")
                time.sleep(0.05)
            raise RollBackError
    finally:
        for thread in threads:
            thread.join(60)
        holder.connection.close()
    by_status = dict(answers)
    assert sorted(by_status) == [200, 201], answers
    assert by_status[201] == "1"
    assert int(by_status[200] or 0) >= 2, answers


def test_the_openapi_document_names_the_header_on_every_write_success() -> None:
    for path, operations in document()["paths"].items():
        for method, operation in operations.items():
            if method not in {"post", "put", "patch", "delete"}:
                continue
            for status, answer in operation["responses"].items():
                named = HEADER in answer.get("headers", {})
                assert named == status.startswith("2"), (path, method, status)
