"""nginx in front of uWSGI answers TRACE as the application would: nginx refuses TRACE before
it chooses a location, with a 405 without the ``Allow`` header RFC 9110 requires; it now goes
to the application, whose 405 names the path's methods (as through ``app serve``'s nginx,
tests/test_app_front_answers.py)."""

import http.client
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from layerbench.errors import MissingPackageError
from layerbench.proc.ports import free_port
from layerbench.servers.adapters import ADAPTERS, ServerPlan
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


def allowed(port: int, method: str, path: str) -> tuple[int, str | None]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        connection.request(method, path)
        response = connection.getresponse()
        response.read()
        return response.status, response.getheader("Allow")
    finally:
        connection.close()


@pytest.mark.parametrize("path", ["/videos", "/tags"])
def test_trace_is_the_applications_405_with_allow(port: int, path: str) -> None:
    status, methods = allowed(port, "PATCH", path)  # the application's own 405
    assert status == 405 and methods
    assert allowed(port, "TRACE", path) == (405, methods)
