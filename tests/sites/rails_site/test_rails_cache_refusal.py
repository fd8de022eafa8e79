"""The Rails application keeps its cached pages in ``public/`` (``local``), in memcached or
nowhere (``none``): a Redis cache URL is refused in one line when its server is built, before
any process starts (it used to fail at Rails' boot, in the server's log)."""

from pathlib import Path

import pytest

from layerbench.errors import ConfigError
from layerbench.servers.adapters import ADAPTERS, ServerPlan
from layerbench_sites.app.app_config import CACHE_URL_VARIABLE

REFUSAL = (
    "the rails application keeps its pages in public/ (local) or in memcached "
    "(memcached://…), not in redis://127.0.0.1:6379: use one of those or none"
)


def plan(workdir: Path, cache_url: str) -> ServerPlan:
    return ServerPlan(
        workdir=workdir / "rails",
        port=1,
        db_path=workdir / "data" / "ladder.sqlite3",
        static_files={},
        app_environment={CACHE_URL_VARIABLE: cache_url},
    )


@pytest.mark.parametrize("server", ["passenger", "puma"])
def test_a_redis_cache_is_refused_before_anything_starts(server: str, workdir: Path) -> None:
    with pytest.raises(ConfigError) as refusal:
        ADAPTERS[server].build(plan(workdir, "redis://127.0.0.1:6379"))
    assert str(refusal.value) == REFUSAL
    assert not (workdir / "rails").exists()


@pytest.mark.parametrize("cache_url", ["local", "none", "memcached://127.0.0.1:11211", ""])
def test_the_caches_rails_keeps_pages_in_are_accepted(cache_url: str, workdir: Path) -> None:
    ADAPTERS["passenger"].build(plan(workdir, cache_url))
