"""nginx in front of uWSGI, as through ``app serve``'s nginx
(tests/sites/app/test_app_front_answers.py):

- TRACE is answered as the application would: nginx refuses TRACE before it chooses a
  location, with a 405 without the ``Allow`` header RFC 9110 requires; it now goes to the
  application, whose 405 names the path's methods;
- a body the application refuses unread (413) no longer breaks the answer: uWSGI closed the
  connection with the body unread, and nginx read a reset where the 413 was (20 oversized
  POSTs and a valid one: ``{413: 16, 502: 4, 201: 1}``); uWSGI now reads the body first."""

import http.client
import json
import shutil
import tempfile
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest

from layerbench.errors import MissingPackageError
from layerbench.proc.ports import free_port
from layerbench.servers.adapters import ADAPTERS, ServerPlan
from layerbench.site_contract import MAX_BODY_BYTES
from layerbench_sites.app.ladder_data import prepare_app_data
from tests.conftest import missing


@pytest.fixture(scope="module")
def port() -> Iterator[int]:
    root = Path(tempfile.mkdtemp(prefix="layerbench-test-uwsgi-front-"))
    root.chmod(0o711)
    data = prepare_app_data(root / "data")
    plan = ServerPlan(
        workdir=root / "server",
        port=free_port(),
        db_path=data.db_path,
        static_files={},
        app_environment=data.environment,
    )
    try:
        deployment = ADAPTERS["uwsgi-nginx"].build(plan)
    except MissingPackageError as error:
        missing(str(error))
        raise AssertionError("unreachable") from error
    try:
        with deployment:
            yield plan.port
    finally:
        shutil.rmtree(root, ignore_errors=True)


def send(port: int, method: str, path: str, body: bytes | None = None) -> tuple[int, str | None]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        connection.request(method, path, body=body, headers={"Content-Type": "application/json"})
        response = connection.getresponse()
        response.read()
        return response.status, response.getheader("Allow")
    finally:
        connection.close()


@pytest.mark.parametrize("path", ["/videos", "/tags"])
def test_trace_is_the_applications_405_with_allow(port: int, path: str) -> None:
    status, methods = send(port, "PATCH", path)  # the application's own 405
    assert status == 405 and methods
    assert send(port, "TRACE", path) == (405, methods)


def test_oversized_bodies_are_413_and_the_next_write_is_made(port: int) -> None:
    oversized = json.dumps({"title": "x" * (8 * MAX_BODY_BYTES)}).encode()  # within nginx's 1m
    statuses = Counter(send(port, "POST", "/videos", oversized)[0] for _ in range(20))
    statuses[send(port, "POST", "/videos", json.dumps({"title": "ok"}).encode())[0]] += 1
    assert statuses == {413: 20, 201: 1}
