"""Shared fixtures. Tests that need a real server binary ask for it through ``require_program``:
missing, the test is skipped with the apt package to install, or fails under
LAYERBENCH_REQUIRE_SERVICES=1 (CI), where every service must be there."""

import os
import shutil
import signal
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from selenium import webdriver
from selenium.webdriver.chrome.service import Service

from layerbench.errors import LayerbenchError, MissingBinaryError
from layerbench.lab.loadgen import find_load_generator
from layerbench.proc.binaries import find_program
from layerbench.rungs.sqlite_file import create_seeded_database
from layerbench.services.registry import SERVICES
from layerbench.services.service import ManagedService

REQUIRE_SERVICES = os.environ.get("LAYERBENCH_REQUIRE_SERVICES") == "1"


def pytest_configure(config: pytest.Config) -> None:
    """Ctrl-C is Python's KeyboardInterrupt in the tests and in what they start, also under a
    runner started in the background of a script (a non-interactive shell hands its background
    jobs SIGINT ignored, Python then installs no handler, and the tests of Ctrl-C waited for
    an interruption that never came, test_threads_together's for ever)."""
    if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)


def missing(reason: str) -> None:
    if REQUIRE_SERVICES:
        pytest.fail(f"{reason} (LAYERBENCH_REQUIRE_SERVICES=1: a missing service is a failure)")
    pytest.skip(reason)


@pytest.fixture
def require_program() -> Callable[[str, str], Path]:
    def require(program: str, apt_package: str) -> Path:
        try:
            return find_program(program, apt_package)
        except MissingBinaryError as error:
            missing(str(error))
            raise AssertionError("unreachable") from error

    return require


@pytest.fixture
def nginx_binary(require_program: Callable[[str, str], Path]) -> Path:
    return require_program("nginx", "nginx")


@pytest.fixture(scope="session")
def load_binary() -> Path:
    try:
        return find_load_generator()
    except LayerbenchError as error:
        missing(str(error))
        raise AssertionError("unreachable") from error


@pytest.fixture
def seeded_db(tmp_path: Path) -> Path:
    return create_seeded_database(tmp_path)


@pytest.fixture
def workdir() -> Iterator[Path]:
    """A work directory that servers dropping privileges (nginx started as root) can reach, as
    the ladder makes its own: traversable by all, listable by its owner only."""
    path = Path(tempfile.mkdtemp(prefix="layerbench-test-"))
    path.chmod(0o711)
    yield path
    shutil.rmtree(path, ignore_errors=True)


def start_service(name: str) -> ManagedService:
    """A throwaway instance of the named service, started (skips or fails when missing)."""
    service = SERVICES[name]()
    try:
        return service.start()
    except MissingBinaryError as error:
        missing(str(error))
        raise AssertionError("unreachable") from error


def _service_url(name: str) -> Iterator[str]:
    service = start_service(name)
    try:
        yield service.url
    finally:
        service.stop()


@pytest.fixture(scope="session")
def postgres_url() -> Iterator[str]:
    """postgresql://layerbench@127.0.0.1:PORT/layerbench, one server for the session."""
    yield from _service_url("postgres")


@pytest.fixture(scope="session")
def mariadb_url() -> Iterator[str]:
    """mysql://root@127.0.0.1:PORT/layerbench, one server for the session."""
    yield from _service_url("mariadb")


@pytest.fixture(scope="session")
def memcached_url() -> Iterator[str]:
    yield from _service_url("memcached")


@pytest.fixture(scope="session")
def memcached_pool_url() -> Iterator[str]:
    """memcached://127.0.0.1:P1,127.0.0.1:P2,127.0.0.1:P3, a pool of 3, one for the session."""
    yield from _service_url("memcached-pool")


@pytest.fixture(scope="session")
def redis_url() -> Iterator[str]:
    yield from _service_url("redis")


@pytest.fixture(scope="session")
def redis_cluster_url() -> Iterator[str]:
    """redis-cluster://127.0.0.1:PORT, node 1 of a 6-node Redis Cluster, one for the session."""
    for url in _service_url("redis-cluster"):
        yield url.replace("redis://", "redis-cluster://", 1).removesuffix("/0")


@pytest.fixture(autouse=True)
def results_database(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> Path:
    """Every test's runs go to a results database of its own, never the user's."""
    path = tmp_path_factory.mktemp("results") / "results.sqlite3"
    monkeypatch.setenv("LAYERBENCH_RESULTS_DB", str(path))
    return path


def artifacts() -> Path:
    """Where tests keep what a person may want to look at (screenshots)."""
    repository = Path(__file__).resolve().parent.parent
    directory = Path(os.environ.get("LAYERBENCH_ARTIFACTS", repository / "test-artifacts"))
    directory.mkdir(parents=True, exist_ok=True)
    return directory


@pytest.fixture
def browser(require_program: Callable[[str, str], Path], tmp_path: Path) -> Iterator[Any]:
    """Debian's chromium, headless, driven through Debian's chromedriver (nothing
    downloaded)."""
    chromium = require_program("chromium", "chromium")
    chromedriver = require_program("chromedriver", "chromium-driver")
    options = webdriver.ChromeOptions()
    options.binary_location = str(chromium)
    for argument in (
        "--headless=new",
        "--no-sandbox",  # root has no user namespace sandbox
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--window-size=1000,900",
        f"--user-data-dir={tmp_path / 'profile'}",
    ):
        options.add_argument(argument)
    service = Service(executable_path=str(chromedriver), log_output=str(tmp_path / "driver.log"))
    driver = webdriver.Chrome(options=options, service=service)
    try:
        yield driver
    finally:
        driver.quit()
