"""What the user asked a ladder run to do."""

from dataclasses import asdict, dataclass, field

from layerbench.errors import ConfigError
from layerbench.ladder.mix import MixOptions, mixed_rung
from layerbench.profile.pyspy_record import DEFAULT_RATE_HZ, MAX_PROFILE_RATE_HZ
from layerbench.results.trials import MAX_REPEATS
from layerbench.rungs.applications import BARE, Application, find_application
from layerbench.rungs.definitions import Rung, ladder_of, selectable_of
from layerbench.servers.adapters import Serves, find_adapter
from layerbench.servers.server_settings import SettingsBook
from layerbench.typed_documents import JsonObject, encode
from layerbench.words import did_you_mean

DEFAULT_SERVER = "gunicorn"


@dataclass(frozen=True)
class LadderOptions:
    concurrency: int = 10
    duration_s: float = 3.0
    warmup_s: float = 1.0
    # Passes over the ladder; each rung's req/s is the median of its trials' (stats/median.py).
    repeats: int = 3
    keep_alive: bool = True
    # The full ladder: on real services (memcached, Redis, MariaDB, PostgreSQL).
    full: bool = False
    # The server adapter that runs the application's rungs, and its settings.
    server: str = DEFAULT_SERVER
    settings: SettingsBook = field(default_factory=dict)
    # None: every rung of the ladder.
    rungs: tuple[str, ...] | None = None
    pin: bool = True
    port: int | None = None
    # `layerbench mix`: its two rungs, then the two mixed, instead of the ladder.
    mix: MixOptions | None = None
    # The applications the servers serve (frameworks/applications.py), each its rungs only;
    # with more than one, the passes interleave them as they interleave the rungs.
    apps: tuple[str, ...] = (BARE.name,)
    # `--profile`: the server's Python workers sampled by py-spy during each measured trial,
    # each this many times a second.
    profile: bool = False
    profile_rate_hz: int = DEFAULT_RATE_HZ

    def __post_init__(self) -> None:
        if self.concurrency < 1:
            raise ConfigError(f"concurrency must be at least 1, not {self.concurrency}")
        if self.duration_s <= 0:
            raise ConfigError(f"the duration must be positive, not {self.duration_s:g} s")
        if self.warmup_s < 0:
            raise ConfigError(f"the warm-up cannot be negative ({self.warmup_s:g} s)")
        if not 1 <= self.repeats <= MAX_REPEATS:
            raise ConfigError(f"repeats must be 1 to {MAX_REPEATS}, not {self.repeats}")
        if self.port is not None and not 1 <= self.port <= 65535:
            raise ConfigError(f"port must be between 1 and 65535, not {self.port}")
        if find_adapter(self.server).serves is Serves.STATIC:
            raise ConfigError(f"{self.server} serves a static file, not the application")
        self._check_applications()
        if len(set(self.apps)) < len(self.apps):
            raise ConfigError(f"an application named twice: {', '.join(self.apps)}")
        if self.port is not None and len(self.apps) > 1:
            raise ConfigError("--port is one server's: not with several applications")
        if self.profile:
            self._check_profiled()
        if self.rungs is not None:
            self._check_rung_names(self.rungs)
            if not self.rungs:
                raise ConfigError("no rungs to run")
        if self.mix is not None:
            self._check_rung_names((self.mix.hit, self.mix.miss))
            self.ladder  # noqa: B018 - builds the mixed rung, which checks the two can mix

    def _check_applications(self) -> None:
        """Refuses an unknown application, or one whose interface the server does not run."""
        for app in self.applications:
            find_adapter(self.server).check_interface(app.name, app.interface)
        if not self.apps:
            raise ConfigError("no applications to run")

    def _check_profiled(self) -> None:
        """py-spy samples Python: a Ruby application is refused, saying why."""
        if not 1 <= self.profile_rate_hz <= MAX_PROFILE_RATE_HZ:
            raise ConfigError(
                f"--profile-rate must be 1 to {MAX_PROFILE_RATE_HZ} Hz, not {self.profile_rate_hz}"
            )
        for app in self.applications:
            if app.interface == "rack":
                raise ConfigError(
                    f"--profile samples Python workers with py-spy; {app.name} runs on Ruby, "
                    "whose sampler (rbspy) is packaged neither for Debian nor for PyPI"
                )

    def _check_rung_names(self, chosen: tuple[str, ...]) -> None:
        names = [rung.name for rung in selectable_of(self.full)]
        unknown = [name for name in chosen if name not in names]
        if unknown:
            which, more = ("full ladder", "") if self.full else ("ladder", " (--full has more)")
            # A rung of the full ladder is no typo: the list says --full has it.
            full = [rung.name for rung in selectable_of(True)]
            choices = () if unknown[0] in full else names
            raise ConfigError(
                did_you_mean(
                    f"unknown rung {', '.join(unknown)}",
                    unknown[0],
                    choices,
                    f"the {which}'s rungs are: " + ", ".join(names) + more,
                )
            )

    @property
    def applications(self) -> tuple[Application, ...]:
        return tuple(find_application(name) for name in self.apps)

    @property
    def ladder(self) -> tuple[Rung, ...]:
        """The rungs to run, in the ladder's order; for a mix, its two rungs and the mix."""
        if self.mix is not None:
            by_name = {rung.name: rung for rung in selectable_of(self.full)}
            hit, miss = by_name[self.mix.hit], by_name[self.mix.miss]
            return (hit, miss, mixed_rung(self.mix, hit, miss))
        chosen = self.rungs
        if chosen is None:
            return ladder_of(self.full)
        return tuple(r for r in selectable_of(self.full) if r.name in chosen)

    def to_dict(self) -> JsonObject:
        # As JSON has them (a tuple is a list): what a reader of the document, stored or still in
        # memory, decodes.
        encoded: JsonObject = encode(asdict(self))
        return encoded
