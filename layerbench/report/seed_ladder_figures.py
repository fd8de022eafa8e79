"""Seed 000's ladders as data (/work/shared/SEED-FIGURES.md holds them with their conditions):
each figure placed on the ladder rung that measures the same layer, under the server and
application the seed measured it with, beside the figure it is "vs above" of in the seed's
chain (memcached and _mysql each against the string, MySQLdb against _mysql, as the full
ladder's chains have them); and what the seed concluded, as claims that
:mod:`layerbench.report.seed_ladder_table` checks (the matrix's seeds:
:mod:`layerbench.report.seed_figures`)."""

from dataclasses import dataclass

from layerbench.report.seed_figures import Claim, Direction, check_named


@dataclass(frozen=True)
class RungPlace:
    """Where a ladder measures a seed's figure."""

    rung: str
    server: str
    app: str = "bare"
    # The ladder it must be on: None for either (the rung is the same on both).
    full: bool | None = None
    # SECTION.KEY=VALUE the ladder must run with (not given: only VALUE "default" is it).
    settings: tuple[str, ...] = ()


@dataclass(frozen=True)
class LadderFigure:
    name: str  # as the seed names it
    place: RungPlace
    requests_per_s: float
    # The figure above it in the seed's chain (its own name at the top of the chain).
    reference: str
    # The CPU the seed saw in top while it ran.
    cpu_seen: str = ""
    # Its hit against its reference as the seed states it (0.82: "82 %"); None: not stated
    # (the table computes it from the two req/s).
    stated_hit: float | None = None


@dataclass(frozen=True)
class Unshown:
    """A conclusion of the seed's that a ladder cannot test, and what would."""

    words: str
    why: str


@dataclass(frozen=True)
class LadderExperiment:
    seed: str
    name: str
    conditions: str
    # The seed's connections (ab -c).
    concurrency: int
    figures: tuple[LadderFigure, ...]
    claims: tuple[Claim, ...]
    unshown: tuple[Unshown, ...]
    # How to run it (the README's command), for the error that names what a ladder lacks.
    command: str

    def __post_init__(self) -> None:
        references = {figure.name: figure.reference for figure in self.figures}
        check_named(f"seed {self.seed} {self.name}", references, self.claims)

    def figure(self, name: str) -> LadderFigure:
        return next(figure for figure in self.figures if figure.name == name)


_MOD_WSGI = "mod_wsgi-embedded"
_STATIC = "hello.txt (static)"
_STRING = "python string"
_MEMCACHED = "memcached lookup"
_MYSQL_RAW = "_mysql"
_MYSQLDB = "MySQLdb"
_ORM = "SQLAlchemy ORM"

_WSGI_MYSQL = LadderExperiment(
    "000",
    "wsgi-mysql",
    "Apache 2.2 prefork (StartServers 16, MaxSpareServers 128, MaxClients 64), mod_wsgi, "
    "MySQL 5 (one InnoDB row), memcached through python-memcached; ab -k -n 10000 -c 100, "
    "client local",
    100,
    (
        LadderFigure(
            _STATIC, RungPlace("static", _MOD_WSGI), 9700, _STATIC, "httpd 2.2 % per process"
        ),
        LadderFigure(_STRING, RungPlace("string", _MOD_WSGI), 7500, _STATIC, "httpd 2 %", 0.23),
        LadderFigure(
            _MEMCACHED,
            RungPlace("memcached", _MOD_WSGI),
            2100,
            _STRING,
            "memcached 10 %, httpd 2 %",
            0.72,
        ),
        LadderFigure(
            _MYSQL_RAW,
            RungPlace("mariadb-raw", _MOD_WSGI),
            1400,
            _STRING,
            "MySQL 77 %, httpd 1.2 %",
            0.82,
        ),
        LadderFigure(
            _MYSQLDB,
            RungPlace("mariadb", _MOD_WSGI),
            880,
            _MYSQL_RAW,
            "MySQL 65 %, httpd 4.5 %",
            0.37,
        ),
        LadderFigure(
            _ORM,
            RungPlace("orm-mariadb", _MOD_WSGI),
            700,
            _MYSQLDB,
            "MySQL 19 %, httpd 5.5 %",
            0.20,
        ),
    ),
    (
        Claim(
            'a MySQL backend "costs 82 % req/s compared to the serve python string from global '
            'variable"',
            _STRING,
            _MYSQL_RAW,
            Direction.FASTER,
        ),
        Claim(
            'memcached "is still 72 % slower than having the in-process memory"',
            _STRING,
            _MEMCACHED,
            Direction.FASTER,
        ),
        Claim(
            'memcached "is 50 % faster than using the _mysql driver"',
            _MEMCACHED,
            _MYSQL_RAW,
            Direction.FASTER,
        ),
        Claim(
            '"a 37 % performance hit" between _mysql and the MySQLdb wrappers (the hit is '
            "MySQLdb's: 880 against 1400)",
            _MYSQL_RAW,
            _MYSQLDB,
            Direction.FASTER,
        ),
        Claim(
            '"Using the SQLAlchemy ORM framework makes things 20 % slower"',
            _MYSQLDB,
            _ORM,
            Direction.FASTER,
        ),
    ),
    (
        Unshown(
            "90 % memcached hits, 10 % ORM, 5 % to choose between them: "
            '"about 1850 requests per second"',
            "a mix of rungs, which layerbench mix measures",
        ),
        Unshown(
            'rule of thumb: a Python webapp is "about 5 times slower than apache serving up '
            'static files"',
            "its 5x is the static file against that estimate, not against a rung",
        ),
    ),
    "ladder --full --server mod_wsgi-embedded -c 100 "
    "--rungs static,string,memcached,mariadb-raw,mariadb,orm-mariadb --seed 000",
)

_PASSENGER = "passenger"
_RAILS_CONDITIONS = (
    "Rails 2.3 under Apache + Passenger (mod_rails) on a MacBook; ab -k -n 10000 -c 100; "
    "the page /videos/1/comments/3"
)
_NO_DATABASE = "no database"
_ACTIVE_RECORD_WORDS = (
    '"a reasonable 500 req/s ... when not connecting to a database, and a reasonable 400 req/s '
    'when connecting to sqlite3"; "ActiveRecord seems good at chewing up CPU"'
)
_PAGE_CACHING_WORDS = '"rails page caching makes things go fast, above 4000 req/s"'
_TUNING = Unshown(
    '"very basic tuning" (PassengerHighPerformance, smart spawning): 533.85 against 508.93, '
    '"I don\'t see that much difference"',
    "two configurations of one server: layerbench matrix --servers passenger,"
    "passenger:tuning=seed --app rails",
)
_RAILS_STRING = LadderFigure(
    _NO_DATABASE,
    RungPlace("string", _PASSENGER, "rails"),
    508.93,
    _NO_DATABASE,
    "ruby 4-5 % per process, httpd 0.6 %",
)


def _rails(
    name: str, full: bool, database: str, page: tuple[str, float], cached: tuple[str, float]
) -> LadderExperiment:
    """Seed 000's Rails page, built and then cached, on ``database`` (``site.database``)."""
    settings = (f"site.database={database}",)
    page_name, page_rate = page
    cached_name, cached_rate = cached
    return LadderExperiment(
        "000",
        name,
        _RAILS_CONDITIONS,
        100,
        (
            _RAILS_STRING,
            LadderFigure(
                page_name,
                RungPlace("page", _PASSENGER, "rails", full, settings),
                page_rate,
                _NO_DATABASE,
                "the vast majority ruby's" if full else "",
            ),
            LadderFigure(
                cached_name,
                RungPlace("cached-page", _PASSENGER, "rails", full, settings),
                cached_rate,
                page_name,
            ),
        ),
        (
            Claim(_ACTIVE_RECORD_WORDS, _NO_DATABASE, page_name, Direction.FASTER),
            Claim(_PAGE_CACHING_WORDS, cached_name, page_name, Direction.FASTER),
        ),
        (_TUNING,),
        "ladder "
        + ("--full --set site.database=mariadb " if full else "")
        + "--app rails --server passenger --rungs string,page,cached-page --seed 000",
    )


SEED_LADDERS: tuple[LadderExperiment, ...] = (
    _WSGI_MYSQL,
    _rails(
        "rails-sqlite", False, "default", ("SQLite page", 256.87), ("caches_page :show", 4398.80)
    ),
    _rails(
        "rails-mysql",
        True,
        "mariadb",
        ("MySQL page (here MariaDB)", 250.00),
        ("caches_page + memcached cache_store", 4461.97),
    ),
)

LADDER_SEED_NAMES = tuple(dict.fromkeys(experiment.seed for experiment in SEED_LADDERS))


def ladder_experiments_of(seed: str) -> list[LadderExperiment]:
    return [experiment for experiment in SEED_LADDERS if experiment.seed == seed]
