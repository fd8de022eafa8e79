"""The seeds' framework figures as data (/work/shared/SEED-FIGURES.md holds them all, with their
conditions), each placed where a matrix run measures the same thing: a column (its server, its
application, the settings that make it the seed's configuration), a concurrency level and, for
a level measured twice in a row (the first measurement after a start and the next), which of
them. Each experiment says what its seed concluded as claims: one configuration against
another, faster or about as fast, which :mod:`layerbench.report.seed_table` checks."""

from dataclasses import dataclass
from enum import Enum


@dataclass(frozen=True)
class Place:
    """Where a matrix measures a seed's configuration."""

    server: str
    app: str
    concurrency: int
    # SECTION.KEY=VALUE the column must run with (its settings used, defaults included).
    settings: tuple[str, ...] = ()
    # Of the run's levels at this concurrency, which one: 0 the first, 1 the second.
    occurrence: int = 0


@dataclass(frozen=True)
class SeedFigure:
    name: str  # as the seed names it
    place: Place
    # None: the seed did not measure it; the row shows ours beside the others.
    requests_per_s: float | None
    # The figure its ratio is taken against (its own name for a reference).
    reference: str
    # Resident memory per process as the seed read it off top (RES), MiB.
    rss_mib: float | None = None


class Direction(Enum):
    FASTER = "faster"
    SAME = "about as fast"


@dataclass(frozen=True)
class Claim:
    """``figure`` is ``direction`` than ``reference``, as the seed says it in ``words``."""

    words: str
    figure: str
    reference: str
    direction: Direction


@dataclass(frozen=True)
class SeedExperiment:
    seed: str
    name: str
    rung: str
    conditions: str
    figures: tuple[SeedFigure, ...]
    claims: tuple[Claim, ...]
    # How to run it (the README's command), for the error that names what a run lacks.
    command: str

    def __post_init__(self) -> None:
        references = {figure.name: figure.reference for figure in self.figures}
        check_named(f"seed {self.seed} {self.name}", references, self.claims)

    def figure(self, name: str) -> SeedFigure:
        return next(figure for figure in self.figures if figure.name == name)


def check_named(experiment: str, references: dict[str, str], claims: tuple[Claim, ...]) -> None:
    """A ValueError when a figure's reference (``references``: figure → reference) or a claim
    names no figure of the experiment."""
    named = set(references.values())
    named |= {name for claim in claims for name in (claim.figure, claim.reference)}
    if named - references.keys():
        raise ValueError(f"{experiment} names no figure {named - references.keys()}")


# Within this of 1 (either way) two rates count as "about as fast" when the interval cannot say.
SAME_TOLERANCE = 0.10

_000_CONDITIONS = (
    "MacBook 2.4 GHz Core 2 Duo server, Mac Pro G5 client over 1 Gbit; Apache prefork after "
    "MPM tuning (StartServers 100, MaxSpareServers 500, MaxClients 500), mod_wsgi 2.3, "
    'Python 2.5; ab -n 5000 -c N (no keep-alive) on a WSGI "Hello World!"'
)
# The seed's daemon configurations: processes, threads.
_000_DAEMONS = ((2, 10), (2, 100), (20, 10))
# Per level: in-process (embedded), then each daemon configuration's req/s.
_000_RATES = {
    100: (4394, 3026, 3154, 2827),
    200: (4449, 2688, 2988, 2711),
    500: (4137, 2779, 3019, 2738),
}
# The daemon configuration the claims compare in-process with: the seed's fastest.
_000_BEST = (2, 100)


def _in_process(level: int) -> str:
    return f"in-process c={level}"


def _daemon(processes: int, threads: int, level: int) -> str:
    return f"p={processes},t={threads} c={level}"


def _seed_000_figures() -> tuple[SeedFigure, ...]:
    figures = []
    for level, (embedded, *daemons) in _000_RATES.items():
        reference = _in_process(level)
        figures.append(
            SeedFigure(reference, Place("mod_wsgi-embedded", "bare", level), embedded, reference)
        )
        for (processes, threads), rate in zip(_000_DAEMONS, daemons, strict=True):
            settings = (
                f"mod_wsgi-daemon.processes={processes}",
                f"mod_wsgi-daemon.threads={threads}",
            )
            place = Place("mod_wsgi-daemon", "bare", level, settings)
            figures.append(SeedFigure(_daemon(processes, threads, level), place, rate, reference))
    return tuple(figures)


def _seed_000_claims() -> tuple[Claim, ...]:
    claims = []
    for level, (embedded, *daemons) in _000_RATES.items():
        best = daemons[_000_DAEMONS.index(_000_BEST)]
        words = (
            '"running mod_wsgi in-process is probably a good idea if you tweak the MPM for it": '
            f"at c={level} {embedded} against daemon mode's best, p=2,t=100, {best}"
        )
        claims.append(
            Claim(words, _in_process(level), _daemon(*_000_BEST, level), Direction.FASTER)
        )
    return tuple(claims)


_002_CONDITIONS = (
    "CentOS in VirtualBox, 2 CPUs; Apache 2.4.4, mod_python 3.4.1, mod_wsgi 3.4, uWSGI 1.9.17, "
    "Python 2.7.5; ab at c=1, 500 warm-up + 500K requests"
)
_002_COMMAND = (
    "matrix --servers mod_python-wsgi:app=django,uwsgi-nginx:app=django,"
    "uwsgi:app=django,mod_wsgi-embedded:app=django --concurrency 1 --rung {rung} --seed 002"
)


def _seed_002(rung: str, words: str, mod_python: float, uwsgi: float) -> SeedExperiment:
    return SeedExperiment(
        "002",
        f"django-{rung}",
        rung,
        _002_CONDITIONS,
        (
            SeedFigure(
                "mod_python WSGI handler",
                Place("mod_python-wsgi", "django", 1),
                mod_python,
                "mod_python WSGI handler",
            ),
            SeedFigure(
                "uWSGI behind nginx",
                Place("uwsgi-nginx", "django", 1),
                uwsgi,
                "mod_python WSGI handler",
            ),
            SeedFigure(
                "uWSGI --http", Place("uwsgi", "django", 1), None, "mod_python WSGI handler"
            ),
            SeedFigure(
                "mod_wsgi", Place("mod_wsgi-embedded", "django", 1), None, "mod_python WSGI handler"
            ),
        ),
        (Claim(words, "uWSGI behind nginx", "mod_python WSGI handler", Direction.FASTER),),
        _002_COMMAND.format(rung=rung),
    )


_004_CONDITIONS = (
    "Pentium M 1.3 GHz, 768 MB; Apache 2.2 prefork, MaxClients 20; Django 1.0, Pylons 0.9; "
    'ab -n 10000 -c 100 on a "Hello, world" view; RES per process read off top'
)
_004_PRELOAD = "mod_wsgi-embedded.preload"
# The seed's Apache: processes of one thread (prefork), 20 at most (MaxClients 20).
# One child at the start (each imports its application as it starts), more as the load comes.
_004_APACHE = (
    "--set apache.max_request_workers=20 --set apache.start_servers=1 "
    "--set apache.min_spare_threads=1 --set apache.max_spare_threads=10"
)

SEEDS: tuple[SeedExperiment, ...] = (
    SeedExperiment(
        "000",
        "mod_wsgi-in-process-daemon",
        "string",
        _000_CONDITIONS,
        _seed_000_figures(),
        _seed_000_claims(),
        "matrix --servers mod_wsgi-embedded,mod_wsgi-daemon:processes=2:threads=10,"
        "mod_wsgi-daemon:processes=2:threads=100,mod_wsgi-daemon:processes=20:threads=10 "
        "--concurrency 100,200,500 --set apache.max_request_workers=500 --seed 000",
    ),
    _seed_002("template", "uWSGI 474 against mod_python's WSGI 455 req/s: +4 %", 455, 474),
    _seed_002(
        "orm", "with one ORM lookup, 245 against 237: +3 % (the difference shrinks)", 237, 245
    ),
    SeedExperiment(
        "003",
        "zope-threads-processes",
        "page",
        "Xen guest, 4 cores; Zope 3 through paste.deploy, RelStorage on MySQL; ab -n 1000",
        (
            SeedFigure(
                "paste (threads) c=1", Place("paste", "zope", 1), 400, "paste (threads) c=1"
            ),
            SeedFigure(
                "mod_wsgi 4 x 1 c=1",
                Place(
                    "mod_wsgi-daemon",
                    "zope",
                    1,
                    ("mod_wsgi-daemon.processes=4", "mod_wsgi-daemon.threads=1"),
                ),
                400,
                "paste (threads) c=1",
            ),
            SeedFigure(
                "paste (threads) c=8", Place("paste", "zope", 8), 276, "paste (threads) c=8"
            ),
            SeedFigure(
                "mod_wsgi 4 x 1 c=8",
                Place(
                    "mod_wsgi-daemon",
                    "zope",
                    8,
                    ("mod_wsgi-daemon.processes=4", "mod_wsgi-daemon.threads=1"),
                ),
                1476,
                "paste (threads) c=8",
            ),
        ),
        (
            Claim(
                'at c=1 both "just under 400" req/s',
                "mod_wsgi 4 x 1 c=1",
                "paste (threads) c=1",
                Direction.SAME,
            ),
            Claim(
                "at c=8, 4 processes 1476 against one process's threads 276: 5.3x (the GIL)",
                "mod_wsgi 4 x 1 c=8",
                "paste (threads) c=8",
                Direction.FASTER,
            ),
        ),
        "matrix --servers paste:app=zope,mod_wsgi-daemon:processes=4:threads=1:app=zope "
        "--rung page --concurrency 1,8 --warmup 5 --no-pin --seed 003",
    ),
    SeedExperiment(
        "004",
        "django-pylons",
        "string",
        _004_CONDITIONS,
        (
            SeedFigure(
                "Django + mod_wsgi",
                Place("mod_wsgi-embedded", "django", 100),
                854.67,
                "Django + mod_wsgi",
                10,
            ),
            SeedFigure(
                "Django + mod_python",
                Place("mod_python-wsgi", "django", 100),
                576.02,
                "Django + mod_wsgi",
                14,
            ),
            SeedFigure(
                "Pylons (here Pyramid) + mod_wsgi",
                Place("mod_wsgi-embedded", "pyramid", 100),
                380.65,
                "Django + mod_wsgi",
                14,
            ),
        ),
        (
            Claim(
                "Django + mod_wsgi 854.67 against Django + mod_python 576.02 req/s: 1.48x",
                "Django + mod_wsgi",
                "Django + mod_python",
                Direction.FASTER,
            ),
            Claim(
                "Django + mod_wsgi 854.67 against Pylons + mod_wsgi 380.65 req/s: 2.25x",
                "Django + mod_wsgi",
                "Pylons (here Pyramid) + mod_wsgi",
                Direction.FASTER,
            ),
        ),
        "matrix --servers mod_wsgi-embedded:app=django,mod_python-wsgi:app=django,"
        "mod_wsgi-embedded:app=pyramid --set apache.threads_per_child=1 "
        f"{_004_APACHE} --rung string --concurrency 100 --seed 004",
    ),
    SeedExperiment(
        "004",
        "preload",
        "string",
        _004_CONDITIONS + "; WSGIApplicationGroup %{GLOBAL} + WSGIImportScript (preload)",
        (
            SeedFigure(
                "lazy, first run",
                Place("mod_wsgi-embedded", "django", 100, (f"{_004_PRELOAD}=off",)),
                617.01,
                "lazy, first run",
            ),
            SeedFigure(
                "preloaded, first run",
                Place("mod_wsgi-embedded", "django", 100, (f"{_004_PRELOAD}=on",)),
                722.23,
                "lazy, first run",
            ),
            SeedFigure(
                "lazy, second run",
                Place("mod_wsgi-embedded", "django", 100, (f"{_004_PRELOAD}=off",), 1),
                878.81,
                "lazy, second run",
            ),
            SeedFigure(
                "preloaded, second run",
                Place("mod_wsgi-embedded", "django", 100, (f"{_004_PRELOAD}=on",), 1),
                887.55,
                "lazy, second run",
            ),
        ),
        (
            Claim(
                "first run after a restart: preloaded 722.23 against lazy 617.01 req/s: +17 %",
                "preloaded, first run",
                "lazy, first run",
                Direction.FASTER,
            ),
            Claim(
                "second run: 887.55 against 878.81: +1 %",
                "preloaded, second run",
                "lazy, second run",
                Direction.SAME,
            ),
        ),
        "matrix --servers mod_wsgi-embedded:preload=off:app=django,"
        "mod_wsgi-embedded:preload=on:app=django --set apache.threads_per_child=1 "
        f"{_004_APACHE} --rung string --concurrency 100,100 --warmup 0 --seed 004",
    ),
)

SEED_NAMES = tuple(dict.fromkeys(experiment.seed for experiment in SEEDS))


def experiments_of(seed: str) -> list[SeedExperiment]:
    return [experiment for experiment in SEEDS if experiment.seed == seed]
