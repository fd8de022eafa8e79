"""Rails under Apache + Phusion Passenger (mod_passenger, "mod_rails"): seed 000's deployment.

Apache serves the application's ``public/`` directory, where ``caches_page`` writes the built
video pages, so a cached page is answered by Apache without Ruby (the seed's 4,400 req/s);
every other request goes through Passenger's core to a pool of Ruby processes running
``config.ru``. Passenger runs them as the owner of ``config.ru``: the application's copy is
given to the unprivileged account; its instance registry stays root's. No network is reached:
the anonymous telemetry and the security update check are off.

``tuning=seed`` is the seed's "very basic tuning": ``PassengerHighPerformance on``,
``RailsSpawnMethod smart``, ``PassengerMaxPoolSize 30``; ``pool_size``, ``spawn_method`` and
``high_performance`` given too win over it."""

from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Literal

from layerbench.errors import ConfigError
from layerbench.proc.ports import LOOPBACK
from layerbench.proc.sessions import end_sessions, sessions_below
from layerbench.roles import FRONT_ROLE, SERVER_ROLE
from layerbench.servers.apache import ApacheServer, ApacheSettings
from layerbench.servers.managed_server import LISTEN_BACKLOG
from layerbench.servers.rails_app import RailsApp, rails_version, require_rails
from layerbench.servers.server_settings import MAX_BACKLOG, MAX_PROCESSES, Range

APT_PACKAGE = "libapache2-mod-passenger"
PASSENGER_ROOT = Path("/usr/lib/ruby/vendor_ruby/phusion_passenger/locations.ini")
RUBY = "/usr/bin/ruby"
# Passenger's own defaults, and the seed's tuning.
DEFAULT_POOL_SIZE = 6
SEED_POOL_SIZE = 30
# Rails takes seconds to boot in each process Passenger spawns for the first requests.
RAILS_START_S = 40.0
PASSENGER_STOP_GRACE_S = 2.5  # it takes about 1.8 s on an idle 2-vCPU machine
Tuning = Literal["none", "seed"]
SpawnMethod = Literal["", "smart", "direct"]
Switch = Literal["", "on", "off"]


@dataclass(frozen=True)
class PassengerSettings:
    tuning: Tuning = "none"
    # 0 or "": the tuning's (Passenger's own defaults without one).
    pool_size: Annotated[int, Range(0, MAX_PROCESSES)] = 0
    spawn_method: SpawnMethod = ""
    high_performance: Switch = ""
    # Ruby processes started at once and kept however idle (PassengerMinInstances).
    min_instances: Annotated[int, Range(0, MAX_PROCESSES)] = 1
    # Requests waiting for a Ruby process beyond which Passenger answers 503 (its own default,
    # 100, failed 500 connections at once); 0: no bound.
    max_request_queue_size: Annotated[int, Range(0, MAX_BACKLOG)] = LISTEN_BACKLOG

    def __post_init__(self) -> None:
        if min(self.pool_size, self.min_instances, self.max_request_queue_size) < 0:
            raise ConfigError(
                "passenger's pool_size, min_instances and max_request_queue_size cannot be negative"
            )

    @property
    def seeded(self) -> bool:
        return self.tuning == "seed"

    def resolved_pool_size(self) -> int:
        return self.pool_size or (SEED_POOL_SIZE if self.seeded else DEFAULT_POOL_SIZE)

    def resolved_spawn_method(self) -> str:
        return self.spawn_method or ("smart" if self.seeded else "direct")

    def resolved_high_performance(self) -> bool:
        return self.seeded if not self.high_performance else self.high_performance == "on"


class PassengerServer(ApacheServer):
    name = "passenger"
    modules = (("passenger_module", "mod_passenger.so"),)
    module_package = APT_PACKAGE

    def __init__(
        self,
        workdir: Path,
        port: int,
        app: RailsApp,
        apache: ApacheSettings,
        settings: PassengerSettings,
        *,
        cpus: frozenset[int] | None = None,
        host: str = LOOPBACK,
    ) -> None:
        super().__init__(workdir, port, apache, cpus, host=host)
        self.start_timeout_s = RAILS_START_S
        require_rails()
        self.app = app
        self.passenger = settings
        self.ready_path = app.ready_path
        self.app_root = workdir / "rails_site"
        self._sessions: set[int] = set()

    def versions(self) -> dict[str, str]:
        return {**super().versions(), "rails": rails_version()}

    def environment(self) -> dict[str, str]:
        # Passenger's core hands Apache's environment to the Ruby processes it spawns.
        return {
            "PATH": "/usr/local/bin:/usr/bin:/bin",
            "TMPDIR": str(self.temp_dir),
            **self.app.environment(),
        }

    @property
    def temp_dir(self) -> Path:
        """Passenger's spawn directories and the application's temporary files, removed with
        the work directory whatever happens."""
        return self.workdir / "tmp"

    def start(self) -> "PassengerServer":
        super().start()
        # Passenger's watchdog starts a session of its own, which Apache's group stop misses.
        self._sessions = sessions_below(self.session)
        return self

    def roles(self) -> dict[str, set[int]]:
        """Apache, which answers the cached pages itself and passes the rest on, in front;
        Passenger's session (its watchdog, its core and every Ruby process) is the server."""
        if not self._sessions:
            return super().roles()
        return {FRONT_ROLE: {self.session}, SERVER_ROLE: set(self._sessions)}

    def stop(self) -> None:
        sessions = set(self._sessions)
        if self.running():
            sessions |= sessions_below(self.session)
        super().stop()
        # Without Apache, Passenger's watchdog stops its core and the Ruby processes.
        end_sessions(sessions, PASSENGER_STOP_GRACE_S)

    @property
    def registry_dir(self) -> Path:
        return self.workdir / "passenger-registry"

    def prepare(self) -> None:
        self.workdir.mkdir(parents=True, exist_ok=True)
        self.app_root = self.app.install(self.workdir, self.run_as)
        self.registry_dir.mkdir(exist_ok=True)  # root's, as Passenger requires of it
        self.temp_dir.mkdir(exist_ok=True)
        self.temp_dir.chmod(0o1777)
        super().prepare()

    def content(self) -> str:
        settings = self.passenger
        public = self.app_root / "public"
        high = "on" if settings.resolved_high_performance() else "off"
        return f"""\
PassengerRoot {PASSENGER_ROOT}
PassengerDefaultRuby {RUBY}
PassengerInstanceRegistryDir {self.registry_dir}
PassengerDataBufferDir {self.workdir}
PassengerDisableAnonymousTelemetry on
PassengerDisableSecurityUpdateCheck on
PassengerMaxPoolSize {settings.resolved_pool_size()}
PassengerMinInstances {settings.min_instances}
PassengerMaxRequestQueueSize {settings.max_request_queue_size}
PassengerSpawnMethod {settings.resolved_spawn_method()}
PassengerHighPerformance {high}
PassengerAppEnv production
PassengerFriendlyErrorPages off
PassengerLogLevel 1
DocumentRoot {public}
<Directory {public}>
    Require all granted
    Options -MultiViews
    AllowOverride None
</Directory>"""
