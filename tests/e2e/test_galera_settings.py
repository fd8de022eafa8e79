"""``--set galera.…`` (the servers' own settings for the throwaway Galera cluster): a value the
servers would refuse or clamp, or a key Galera does not have, is refused in one line (exit 2)
before any node starts. That the settings reach every node: tests/e2e/test_db_hosts.py."""

import subprocess
import sys

import pytest

from layerbench.errors import ConfigError
from layerbench.lab.service_settings import service_arguments
from layerbench.services.galera import GaleraService


@pytest.mark.parametrize(
    ("setting", "says"),
    [
        ("wsrep_sync_wait=16", "galera.wsrep_sync_wait is 0 to 15"),
        ("wsrep_sync_wait=-1", "galera.wsrep_sync_wait is 0 to 15"),
        ("wsrep_slave_threads=0", "galera.wsrep_slave_threads is 1 to 512, not 0"),
        ("wsrep_slave_threads=many", "galera.wsrep_slave_threads"),
        ("profile=fast", "galera.profile is one of default, seed003"),
        ("gcache=1G", "galera has no setting gcache; its settings are: profile,"),
    ],
)
def test_a_galera_setting_is_refused_in_one_line(setting: str, says: str) -> None:
    key, value = setting.split("=")
    with pytest.raises(ConfigError) as refused:
        service_arguments({"galera": {key: value}}, "galera")
    assert says in str(refused.value) and "\n" not in str(refused.value)


SET_GALERA = ["--set", "galera.wsrep_sync_wait=16"]


def test_services_up_refuses_a_galera_setting_before_any_node_starts() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "layerbench.cli", "services", "up", "galera", *SET_GALERA],
        capture_output=True,
        text=True,
        timeout=20,
        check=False,
    )
    assert done.returncode == 2, done.stderr
    assert done.stderr.strip().count("\n") == 0, done.stderr
    assert "galera.wsrep_sync_wait is 0 to 15" in done.stderr


def test_the_class_refuses_what_the_settings_refuse() -> None:
    with pytest.raises(ConfigError, match="wsrep_sync_wait is 0 to 15"):
        GaleraService(wsrep_sync_wait=99)


SET_REDIS = ["--set", "redis.maxmemory=1mb"]


def test_services_up_refuses_settings_for_a_service_that_has_none() -> None:
    """Named with ``services up``, a service without settings (redis) once let its section
    through, read by nothing: the server started and the setting was silently ignored."""
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "layerbench.cli",
            "services",
            "up",
            "redis",
            "--set",
            "redis.maxmemory=1mb",
        ],
        capture_output=True,
        text=True,
        timeout=20,
        check=False,
    )
    assert done.returncode == 2, done.stderr
    assert "no server reads settings for redis" in done.stderr
    assert done.stderr.strip().count("\n") == 0, done.stderr
