import pytest

from layerbench.errors import ConfigError
from layerbench.ladder.options import LadderOptions


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"concurrency": 0}, "concurrency must be at least 1"),
        ({"duration_s": 0}, "duration must be positive"),
        ({"warmup_s": -1}, "warm-up cannot be negative"),
        ({"repeats": 0}, "repeats must be 1 to 100"),
        ({"server": "nope"}, "unknown server 'nope'"),
        ({"server": "nginx-static"}, "nginx-static serves a static file"),
        (
            {"rungs": ("memcached",)},
            r"unknown rung memcached; the ladder's rungs are: .*, upstream \(--full has more\)",
        ),
        ({"port": 70000}, "port must be between 1 and 65535"),
        (
            {"rungs": ("string", "nope")},
            "unknown rung nope; the ladder's rungs are: static, string",
        ),
        ({"rungs": ()}, "no rungs"),
    ],
)
def test_wrong_options_are_refused_with_a_reason(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        LadderOptions(**kwargs)  # type: ignore[arg-type]


def test_the_full_ladder_runs_the_seeds_rungs_in_order() -> None:
    options = LadderOptions(full=True)
    # The seed's chain on MariaDB (_mysql, MySQLdb, the ORM), then PostgreSQL's beside it.
    assert [rung.name for rung in options.ladder][:10] == [
        "static", "string", "memcached", "redis", "couchdb",
        "mariadb-raw", "mariadb", "orm-mariadb", "postgres", "orm",
    ]  # fmt: skip
    assert [r.name for r in LadderOptions(full=True, rungs=("redis", "string")).ladder] == [
        "string",
        "redis",
    ]
