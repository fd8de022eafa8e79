"""What the user asked a matrix run to do: server configurations (columns) x concurrency levels
(rows) on one rung.

A column is ``NAME`` or ``NAME:KEY=VALUE:…`` (``mod_wsgi-daemon:processes=2:threads=10``): its
keys are the adapter's own settings, or ``SECTION.KEY`` for a shared one
(``mod_wsgi-embedded:apache.mpm=prefork``); ``--set`` gives settings to every column, and a
column's own win. The same adapter may appear in several columns with different settings.
A column's ``app=NAME`` names the application its server runs (``mod_wsgi-embedded:app=django``;
the bare one when it has none): a key of the column, not a setting of its server.
"""

from dataclasses import asdict, dataclass, field

from layerbench.errors import ConfigError
from layerbench.lab.loadgen import MAX_CONCURRENCY
from layerbench.profile.pyspy_record import DEFAULT_RATE_HZ
from layerbench.profile.trial_profiling import check_profiled
from layerbench.replicate.count_claims import MAX_SERVED_COUNTS
from layerbench.results.trials import MAX_REPEATS
from layerbench.rungs.applications import BARE, Application, find_application
from layerbench.rungs.definitions import Rung, Stack, selectable_of
from layerbench.served.served_cost import MEASURES
from layerbench.served.served_counting import counting_for
from layerbench.served.served_windows import MAX_REQUESTS
from layerbench.servers.adapters import Serves, find_adapter
from layerbench.servers.server_settings import SettingsBook, add_assignments
from layerbench.typed_documents import JsonObject, encode
from layerbench.words import did_you_mean

# The rungs a matrix may measure: the default ladder's, and those run only when asked for.
MATRIX_RUNGS = selectable_of(full=False)
MATRIX_RUNG_NAMES = tuple(rung.name for rung in MATRIX_RUNGS)


@dataclass(frozen=True)
class Column:
    label: str
    adapter: str
    book: SettingsBook
    app: str = BARE.name

    @classmethod
    def parse(cls, text: str, common: SettingsBook, app: str = BARE.name) -> "Column":
        """``app``: the application of a column that names none."""
        name, *parts = [part.strip() for part in text.split(":")]
        find_adapter(name)
        apps = [part.partition("=")[2].strip() for part in parts if _is_app(part)]
        if len(apps) > 1:
            raise ConfigError(f"{text.strip()}: one app= per column, not {len(apps)}")
        app = find_application(apps[0] if apps else app).name
        assignments = [part for part in parts if not _is_app(part)]
        book = add_assignments(common, assignments, default_section=name)
        return cls(text.strip(), name, book, app)

    @property
    def application(self) -> Application:
        return find_application(self.app)


def _is_app(part: str) -> bool:
    return part.partition("=")[0].strip() == "app"


@dataclass(frozen=True)
class MatrixOptions:
    columns: tuple[Column, ...]
    concurrency: tuple[int, ...] = (10, 100, 200, 500)
    rung: str = "string"
    duration_s: float = 5.0
    warmup_s: float = 1.0
    # Passes over the columns, interleaved; each cell's req/s is the median of its trials'.
    repeats: int = 1
    keep_alive: bool = True
    pin: bool = True
    settings: SettingsBook = field(default_factory=dict)
    # --measure: after its cells, each column's served cost counted (instructions, or
    # estimated cycles with them): layerbench/served/.
    measure: str | None = None
    # With --measure: each column's served cost counted this many times (its spread decides a
    # published claim: layerbench/replicate/count_claims.py), and, when given, its first this
    # many requests after a fresh start counted as many times.
    served_counts: int = 1
    first_requests: int | None = None
    # With first_requests: the second run counted after them on the same start, settled and
    # counted at this concurrency (layerbench/replicate/second_run.py).
    second_run: int | None = None
    # Seconds of warm-up before a level that repeats an earlier one's concurrency (a second
    # run: the children a first run started, done starting), instead of warmup_s; None: the
    # same.
    rerun_warmup_s: float | None = None
    # With --measure: each column counted settled at this concurrency instead of after a
    # warm-up at 1 (layerbench/replicate/settled_counts.py).
    settled: int | None = None
    # --profile: py-spy on each cell's workers during its trials, this many samples a second.
    profile: bool = False
    profile_rate_hz: int = DEFAULT_RATE_HZ

    def __post_init__(self) -> None:
        if not self.columns:
            raise ConfigError("no servers to run: give --servers NAME[,NAME…]")
        if not self.concurrency:
            raise ConfigError("no concurrency levels: give --concurrency N[,N…]")
        for level in self.concurrency:
            if not 1 <= level <= MAX_CONCURRENCY:
                raise ConfigError(f"concurrency must be 1 to {MAX_CONCURRENCY:,}, not {level}")
        if self.rung not in MATRIX_RUNG_NAMES:
            known = ", ".join(MATRIX_RUNG_NAMES)
            raise ConfigError(
                did_you_mean(
                    f"unknown rung {self.rung}",
                    self.rung,
                    MATRIX_RUNG_NAMES,
                    f"the rungs are: {known}",
                )
            )
        if self.duration_s <= 0 or self.warmup_s < 0 or (self.rerun_warmup_s or 0) < 0:
            raise ConfigError("the duration must be positive and the warm-up not negative")
        if not 1 <= self.repeats <= MAX_REPEATS:
            raise ConfigError(f"repeats must be 1 to {MAX_REPEATS}, not {self.repeats}")
        for column in self.columns:
            self.rung_for(column)  # refuses a rung the column's server cannot serve
            app = column.application
            find_adapter(column.adapter).check_interface(app.name, app.interface)
        apps = (column.application for column in self.columns)
        check_profiled(self.profile, apps, self.profile_rate_hz)
        self._check_served_counts()

    def _check_served_counts(self) -> None:
        """--measure's counts: how many, the first requests', the second run's."""
        if self.measure is not None:
            self._check_measure()
        elif self.served_counts != 1 or self.first_requests is not None:
            raise ConfigError("--measure-counts and --first-requests go with --measure")
        if not 1 <= self.served_counts <= MAX_SERVED_COUNTS:
            raise ConfigError(
                f"--measure-counts is 1 to {MAX_SERVED_COUNTS}, not {self.served_counts}"
            )
        if self.first_requests is not None and not 1 <= self.first_requests <= MAX_REQUESTS:
            raise ConfigError(
                f"--first-requests is 1 to {MAX_REQUESTS:,}, not {self.first_requests}"
            )
        if self.settled is not None:
            if self.measure is None or self.first_requests is not None:
                raise ConfigError("--settled goes with --measure, not with --first-requests")
            if not 1 <= self.settled <= MAX_CONCURRENCY:
                raise ConfigError(f"--settled is 1 to {MAX_CONCURRENCY:,}, not {self.settled}")
        if self.second_run is not None:
            if self.first_requests is None:
                raise ConfigError("--second-run goes with --first-requests")
            if not 1 <= self.second_run <= MAX_CONCURRENCY:
                raise ConfigError(
                    f"--second-run is 1 to {MAX_CONCURRENCY:,}, not {self.second_run}"
                )

    def _check_measure(self) -> None:
        """Every column countable, its rung one request: refused before anything starts."""
        if self.measure not in MEASURES:
            raise ConfigError(f"--measure is one of {', '.join(MEASURES)}, not {self.measure}")
        for column in self.columns:
            counting_for(column.adapter)
            if self.rung_for(column).mix:
                raise ConfigError(
                    f"--measure {self.measure} counts one request; {self.rung} mixes several"
                )

    def named_rung(self) -> Rung:
        """The rung ``rung`` names (a static column measures the static file instead)."""
        return next(rung for rung in MATRIX_RUNGS if rung.name == self.rung)

    def rung_for(self, column: Column) -> Rung:
        """The rung a column measures: a static server always serves the static file (the
        anchor the others are compared with); the others serve the chosen rung."""
        serves = find_adapter(column.adapter).serves
        name = "static" if serves is Serves.STATIC else self.rung
        rung = next(rung for rung in MATRIX_RUNGS if rung.name == name)
        if serves is Serves.APPLICATION and rung.stack is not Stack.PYTHON:
            raise ConfigError(f"{column.adapter} runs the application: choose a Python rung")
        if serves is Serves.STRING and rung.name != "string":
            raise ConfigError(f"{column.adapter} serves the string rung only, not {rung.name}")
        return rung

    def to_dict(self) -> JsonObject:
        # As JSON has them (a tuple is a list): what a reader of the document, stored or still in
        # memory, decodes.
        encoded: JsonObject = encode(asdict(self))
        return encoded


def parse_concurrency(text: str) -> tuple[int, ...]:
    try:
        return tuple(int(part) for part in text.split(",") if part.strip())
    except ValueError:
        raise ConfigError(
            f"--concurrency takes whole numbers, like 10,100,500; not {text!r}"
        ) from None
