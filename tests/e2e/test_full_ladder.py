"""``layerbench ladder --full`` on real, throwaway memcached, Redis, MariaDB and PostgreSQL:
every rung verified and measured in the seed's order, each service's CPU in its role, and a
missing service's rungs skipped naming its package while the others run."""

from pathlib import Path

import pytest

from layerbench.ladder.ladder_result import LadderResult
from layerbench.ladder.options import LadderOptions
from layerbench.results.status import Status
from layerbench.rungs.definitions import FULL_RUNG_NAMES
from tests.conftest import missing
from tests.ladder_runs import run_ladder
from tests.proc_scan import processes_mentioning


def run_full(workdir: Path, load_binary: Path, rungs: tuple[str, ...] | None) -> LadderResult:
    options = LadderOptions(duration_s=1.0, warmup_s=0.3, repeats=1, full=True, rungs=rungs)
    return run_ladder(workdir, load_binary, options)


def test_full_ladder_measures_every_rung_with_each_service_in_its_role(
    workdir: Path, nginx_binary: Path, load_binary: Path
) -> None:
    result = run_full(workdir, load_binary, None)
    for rung in result.rungs:
        if rung.status is Status.SKIPPED:
            missing(rung.message or rung.rung)
    assert [rung.rung for rung in result.rungs] == list(FULL_RUNG_NAMES)
    by_name = {rung.rung: rung for rung in result.rungs}
    for rung in result.rungs:
        assert rung.status is Status.OK, (rung.rung, rung.message)
        assert rung.load is not None and rung.load.errors == 0, rung.rung
    # Each service's processes were followed, in their role, while its rung ran: PostgreSQL's
    # backends (sessions of their own) included.
    for name, role in [
        ("memcached", "cache"),
        ("redis", "cache"),
        ("mariadb", "database"),
        ("postgres", "database"),
        ("orm", "database"),
    ]:
        usage = by_name[name].usage
        assert usage is not None
        assert usage.roles[role].cpu_s > 0, (name, usage.roles[role])
    assert by_name["postgres"].usage is not None
    assert len(by_name["postgres"].usage.roles["database"].processes) > 1
    # The write rung added comments through the site: its requests were POSTs that created.
    write = by_name["write"].load
    assert write is not None and write.document["status_counts"].keys() == {"201"}
    assert set(result.conditions["services"]) == {
        "memcached", "redis", "couchdb", "mariadb", "postgres"
    }  # fmt: skip
    assert processes_mentioning(str(workdir)) == []


def test_a_missing_service_skips_its_rungs_naming_the_package(
    workdir: Path, load_binary: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PATH", str(workdir))  # a machine where no service is installed
    monkeypatch.setattr("layerbench.proc.binaries.SYSTEM_DIRS", ())
    result = run_full(workdir, load_binary, ("string", "memcached", "redis"))
    string, memcached, redis = result.rungs
    assert string.status is Status.OK
    assert memcached.status is Status.SKIPPED
    assert (
        memcached.message
        == "memcached is not installed; install it with: apt-get install memcached "
        "(dnf install memcached; brew install memcached)"
    )
    assert redis.status is Status.SKIPPED
    assert "apt-get install redis-server" in (redis.message or "")
    assert not result.failed
