"""Every deployment ``--servers`` can name, and how each is built from a plan: its work
directory, port, CPUs, the application's database (or the static files) and the user's
settings. Building starts nothing: a wrong name, setting or missing package is found before
any server runs."""

from collections.abc import Callable
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path
from typing import Any, TypeVar

from layerbench.errors import ConfigError
from layerbench.proc.ports import LOOPBACK
from layerbench.servers.apache import ApacheSettings, ApacheStatic
from layerbench.servers.cheroot import CherootServer, CherootSettings
from layerbench.servers.daphne import DaphneServer, DaphneSettings
from layerbench.servers.deployment import Deployment
from layerbench.servers.embedded_app import EmbeddedApp
from layerbench.servers.granian import GranianServer, GranianSettings
from layerbench.servers.granian_asgi import GranianAsgiServer, GranianAsgiSettings
from layerbench.servers.gunicorn import GunicornServer, GunicornSettings
from layerbench.servers.gunicorn_uvicorn import GunicornUvicornServer, GunicornUvicornSettings
from layerbench.servers.hypercorn import HypercornServer, HypercornSettings
from layerbench.servers.mod_python import ModPythonHandler, ModPythonWsgi
from layerbench.servers.mod_wsgi import (
    ModWsgiDaemonSettings,
    ModWsgiEmbeddedSettings,
    ModWsgiServer,
)
from layerbench.servers.nginx import NginxSettings, NginxStatic
from layerbench.servers.passenger import PassengerServer, PassengerSettings
from layerbench.servers.paste import PasteServer, PasteSettings
from layerbench.servers.puma import PumaServer, PumaSettings
from layerbench.servers.python_app_server import PythonAppServer
from layerbench.servers.rails_app import RailsApp
from layerbench.servers.server_settings import (
    SettingsBook,
    UsedSettings,
    as_record,
    read_section,
)
from layerbench.servers.uvicorn import UvicornServer, UvicornSettings
from layerbench.servers.uwsgi import UwsgiServer, UwsgiSettings
from layerbench.servers.uwsgi_nginx import NginxUwsgiFront, uwsgi_behind_nginx
from layerbench.servers.waitress import WaitressServer, WaitressSettings
from layerbench.words import did_you_mean

T = TypeVar("T")
CORES_DEFAULT = 2  # processes for the servers that fork workers: this project's machines
# The interfaces an application speaks (frameworks/applications.py's Application.interface).
WSGI = "wsgi"
ASGI = "asgi"
RACK = "rack"  # Ruby's: the Rails application, under passenger and puma


class Serves(Enum):
    STATIC = "the static file"
    APPLICATION = "the application"
    STRING = "the string rung only"


@dataclass
class ServerPlan:
    workdir: Path
    port: int
    # The application's SQLite database, alone in its directory.
    db_path: Path
    # The static rung's files, by name.
    static_files: dict[str, bytes]
    book: SettingsBook = field(default_factory=dict)
    cpus: frozenset[int] | None = None
    host: str = LOOPBACK
    app_environment: dict[str, str] = field(default_factory=dict)
    # What the build read, section by section, with every default filled in: the exact
    # settings a result records.
    used: UsedSettings = field(default_factory=dict)

    def settings(self, settings_type: type[T], section: str, **defaults: Any) -> T:
        value = read_section(settings_type, self.book, section, defaults)
        self.used[section] = as_record(value)
        return value

    def app(self) -> EmbeddedApp:
        return EmbeddedApp(self.db_path, self.app_environment)


@dataclass(frozen=True)
class Adapter:
    name: str
    serves: Serves
    summary: str
    build: Callable[[ServerPlan], Deployment]
    # The application interfaces it runs (a static server runs none).
    interfaces: frozenset[str] = frozenset({WSGI})

    def check_interface(self, app: str, interface: str) -> None:
        """A ConfigError, before anything starts, when it cannot run ``app``, which speaks
        ``interface``; naming the servers that can."""
        if self.serves is Serves.STATIC or interface in self.interfaces:
            return
        theirs = [
            a.name
            for a in ADAPTERS.values()
            if a.serves is Serves.APPLICATION and interface in a.interfaces
        ]
        article = "an" if interface == ASGI else "a"
        raise ConfigError(
            f"{self.name} runs {'/'.join(sorted(self.interfaces)).upper()} applications, and "
            f"{app} is {article} {interface.upper()} application: choose one of "
            + ", ".join(theirs)
        )


def _python_server(
    server_type: type[PythonAppServer[T]], settings_type: type[T], name: str, **defaults: Any
) -> Callable[[ServerPlan], Deployment]:
    """An adapter for a server that runs the application in our own Python, named ``name``
    (its settings' section too), its settings defaulting to ``defaults``."""

    def build(plan: ServerPlan) -> Deployment:
        settings = plan.settings(settings_type, name, **defaults)
        server = server_type(
            plan.workdir,
            plan.port,
            plan.db_path,
            settings,
            plan.cpus,
            host=plan.host,
            app_environment=plan.app_environment,
        )
        server.name = name
        return server

    return build


def _uwsgi(plan: ServerPlan) -> Deployment:
    settings = plan.settings(UwsgiSettings, "uwsgi")
    return UwsgiServer(plan.workdir, plan.port, plan.app(), settings, plan.cpus, host=plan.host)


def _uwsgi_nginx(plan: ServerPlan) -> Deployment:
    settings = plan.settings(UwsgiSettings, "uwsgi-nginx")
    if settings.http_socket:
        raise ConfigError("uwsgi-nginx speaks to nginx over a unix socket: no http_socket")
    uwsgi = UwsgiServer(
        plan.workdir / "uwsgi", 0, plan.app(), settings, plan.cpus, unix_socket=True
    )
    nginx = NginxUwsgiFront(
        plan.workdir / "nginx",
        plan.port,
        uwsgi.socket_path,
        workers=plan.settings(NginxSettings, "nginx").workers,
        cpus=plan.cpus,
        host=plan.host,
    )
    return uwsgi_behind_nginx(uwsgi, nginx)


def _mod_wsgi_embedded(plan: ServerPlan) -> Deployment:
    mode = plan.settings(ModWsgiEmbeddedSettings, "mod_wsgi-embedded")
    apache = plan.settings(ApacheSettings, "apache")
    return ModWsgiServer(
        plan.workdir, plan.port, plan.app(), apache, mode=mode, cpus=plan.cpus, host=plan.host
    )


def _mod_wsgi_daemon(plan: ServerPlan) -> Deployment:
    mode = plan.settings(ModWsgiDaemonSettings, "mod_wsgi-daemon")
    apache = plan.settings(ApacheSettings, "apache")
    return ModWsgiServer(
        plan.workdir, plan.port, plan.app(), apache, mode=mode, cpus=plan.cpus, host=plan.host
    )


def _mod_python(plan: ServerPlan) -> Deployment:
    apache = plan.settings(ApacheSettings, "apache")
    return ModPythonHandler(plan.workdir, plan.port, apache, plan.cpus, host=plan.host)


def _mod_python_wsgi(plan: ServerPlan) -> Deployment:
    apache = plan.settings(ApacheSettings, "apache")
    return ModPythonWsgi(plan.workdir, plan.port, plan.app(), apache, plan.cpus, host=plan.host)


def _nginx_static(plan: ServerPlan) -> Deployment:
    workers = plan.settings(NginxSettings, "nginx").workers
    return NginxStatic(
        plan.workdir, plan.port, plan.static_files, workers=workers, cpus=plan.cpus, host=plan.host
    )


def _passenger(plan: ServerPlan) -> Deployment:
    passenger = plan.settings(PassengerSettings, "passenger")
    apache = plan.settings(ApacheSettings, "apache")
    app = RailsApp(plan.db_path, plan.app_environment)
    return PassengerServer(
        plan.workdir, plan.port, app, apache, passenger, cpus=plan.cpus, host=plan.host
    )


def _puma(plan: ServerPlan) -> Deployment:
    settings = plan.settings(PumaSettings, "puma", workers=CORES_DEFAULT)
    app = RailsApp(plan.db_path, plan.app_environment)
    return PumaServer(plan.workdir, plan.port, app, settings, plan.cpus, host=plan.host)


def _apache_static(plan: ServerPlan) -> Deployment:
    apache = plan.settings(ApacheSettings, "apache")
    return ApacheStatic(
        plan.workdir, plan.port, plan.static_files, apache, plan.cpus, host=plan.host
    )


ADAPTERS: dict[str, Adapter] = {
    adapter.name: adapter
    for adapter in (
        Adapter(
            "gunicorn",
            Serves.APPLICATION,
            "gunicorn, sync workers",
            _python_server(GunicornServer, GunicornSettings, "gunicorn", workers=CORES_DEFAULT),
        ),
        Adapter(
            "gunicorn-gthread",
            Serves.APPLICATION,
            "gunicorn, threaded workers",
            _python_server(
                GunicornServer,
                GunicornSettings,
                "gunicorn-gthread",
                workers=CORES_DEFAULT,
                worker_class="gthread",
                threads=4,
            ),
        ),
        Adapter(
            "granian",
            Serves.APPLICATION,
            "granian (Rust), WSGI interface",
            _python_server(GranianServer, GranianSettings, "granian"),
        ),
        Adapter(
            "waitress",
            Serves.APPLICATION,
            "waitress, one process, threads",
            _python_server(WaitressServer, WaitressSettings, "waitress"),
        ),
        Adapter(
            "cheroot",
            Serves.APPLICATION,
            "cheroot, one process, a thread pool",
            _python_server(CherootServer, CherootSettings, "cheroot"),
        ),
        Adapter(
            "paste",
            Serves.APPLICATION,
            "paste.httpserver, one process, a thread pool",
            _python_server(PasteServer, PasteSettings, "paste"),
        ),
        Adapter("uwsgi", Serves.APPLICATION, "uWSGI with its own HTTP router", _uwsgi),
        Adapter(
            "uwsgi-nginx",
            Serves.APPLICATION,
            "uWSGI behind nginx (uwsgi protocol, unix socket)",
            _uwsgi_nginx,
        ),
        Adapter(
            "mod_wsgi-embedded",
            Serves.APPLICATION,
            "Apache mod_wsgi, embedded mode",
            _mod_wsgi_embedded,
        ),
        Adapter(
            "mod_wsgi-daemon",
            Serves.APPLICATION,
            "Apache mod_wsgi, daemon mode",
            _mod_wsgi_daemon,
        ),
        Adapter("mod_python", Serves.STRING, "Apache mod_python, a pure handler", _mod_python),
        Adapter(
            "mod_python-wsgi",
            Serves.APPLICATION,
            "Apache mod_python's WSGI handler",
            _mod_python_wsgi,
        ),
        Adapter(
            "uvicorn",
            Serves.APPLICATION,
            "uvicorn, an event loop per worker (ASGI)",
            _python_server(UvicornServer, UvicornSettings, "uvicorn", workers=CORES_DEFAULT),
            frozenset({ASGI}),
        ),
        Adapter(
            "gunicorn-uvicorn",
            Serves.APPLICATION,
            "gunicorn with uvicorn workers (ASGI)",
            _python_server(
                GunicornUvicornServer,
                GunicornUvicornSettings,
                "gunicorn-uvicorn",
                workers=CORES_DEFAULT,
            ),
            frozenset({ASGI}),
        ),
        Adapter(
            "hypercorn",
            Serves.APPLICATION,
            "Hypercorn, an event loop per worker (ASGI)",
            _python_server(HypercornServer, HypercornSettings, "hypercorn", workers=CORES_DEFAULT),
            frozenset({ASGI}),
        ),
        Adapter(
            "daphne",
            Serves.APPLICATION,
            "Daphne (Twisted), one process (ASGI)",
            _python_server(DaphneServer, DaphneSettings, "daphne"),
            frozenset({ASGI}),
        ),
        Adapter(
            "granian-asgi",
            Serves.APPLICATION,
            "granian (Rust), ASGI interface",
            _python_server(GranianAsgiServer, GranianAsgiSettings, "granian-asgi"),
            frozenset({ASGI}),
        ),
        Adapter("nginx-static", Serves.STATIC, "nginx serving a file", _nginx_static),
        Adapter("apache-static", Serves.STATIC, "Apache serving a file", _apache_static),
        Adapter(
            "passenger",
            Serves.APPLICATION,
            "Apache + Phusion Passenger (mod_rails), the Rails application (Ruby)",
            _passenger,
            frozenset({RACK}),
        ),
        Adapter(
            "puma",
            Serves.APPLICATION,
            "puma, worker processes of threads, the Rails application (Ruby)",
            _puma,
            frozenset({RACK}),
        ),
    )
}


def find_adapter(name: str) -> Adapter:
    adapter = ADAPTERS.get(name)
    if adapter is None:
        raise ConfigError(
            did_you_mean(
                f"unknown server {name!r}",
                name,
                ADAPTERS,
                f"the servers are: {', '.join(ADAPTERS)}",
            )
        )
    return adapter
