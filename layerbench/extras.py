"""Which extra of ``pip install layerbench`` each part needs, in one place, and the refusal
when it is not installed.

The core install is the instrument and the bare site on its embedded defaults (SQLite, the
in-process cache) under gunicorn. Every other application, server, rung, service, cache or
database is an extra's (pyproject.toml's ``[project.optional-dependencies]``). A command that
names one whose extra is missing is refused before anything starts, in one line, exit 2::

    layerbench: error: the flask application needs the flask extra: pip install 'layerbench[flask]'

Whether a module is installed is found with :func:`importlib.util.find_spec` on its top-level
package, then on each submodule's own directory: nothing is imported (a framework configures
itself on import; the instrument never imports one)."""

import argparse
import importlib.machinery
import importlib.util
from collections.abc import Iterable
from dataclasses import dataclass, field
from urllib.parse import urlsplit

from layerbench.errors import ConfigError
from layerbench.rungs.applications import APPLICATIONS as APPS
from layerbench.rungs.definitions import ladder_of, selectable_of


@dataclass(frozen=True)
class Need:
    """An extra, and the modules of it a part imports (any of them missing: the extra is)."""

    extra: str
    modules: tuple[str, ...]


class MissingExtraError(ConfigError):
    """A part was chosen whose extra is not installed: a usage error (exit 2), one line."""

    def __init__(self, what: str, extra: str) -> None:
        self.what = what
        self.extra = extra
        super().__init__(f"{what} needs the {extra} extra: {install_command(extra)}")


def install_command(extra: str) -> str:
    return f"pip install 'layerbench[{extra}]'"


def _need(extra: str, *modules: str) -> tuple[Need, ...]:
    return (Need(extra, modules),)


SERVERS_EXTRA = "servers"
ASGI_EXTRA = "asgi"
DATABASES_EXTRA = "databases"

# By server adapter (servers/adapters.py). gunicorn and waitress (app serve's without nginx)
# are the core's; uWSGI, mod_wsgi, mod_python,
# nginx, Apache, Passenger and puma are the system's (their adapters name the apt package).
SERVERS: dict[str, tuple[Need, ...]] = {
    "granian": _need(SERVERS_EXTRA, "granian"),
    "granian-asgi": _need(SERVERS_EXTRA, "granian"),
    "cheroot": _need(SERVERS_EXTRA, "cheroot"),
    "paste": _need(SERVERS_EXTRA, "paste.httpserver"),
    "uvicorn": _need(ASGI_EXTRA, "uvicorn", "uvloop", "httptools"),
    "gunicorn-uvicorn": _need(ASGI_EXTRA, "uvicorn_worker", "uvicorn", "uvloop"),
    "hypercorn": _need(ASGI_EXTRA, "hypercorn"),
    "daphne": _need(ASGI_EXTRA, "daphne"),
}
# By application (rungs/applications.py); bare and rails need none.
APPLICATIONS: dict[str, tuple[Need, ...]] = {
    "django": _need("django", "django"),
    "flask": _need("flask", "flask"),
    "pyramid": _need("pyramid", "pyramid", "pyramid_chameleon", "paste.deploy"),
    "zope": _need("zope", "Zope2", "ZEO", "paste.deploy"),
    "starlette": _need(ASGI_EXTRA, "starlette", "aiosqlite"),
    "fastapi": _need(ASGI_EXTRA, "fastapi", "pydantic", "aiosqlite"),
    "django-asgi": (Need("django", ("django",)), Need(ASGI_EXTRA, ("aiosqlite",))),
}
# By service kind (services/registry.py, and a rung's ``needs``): the clients the lab probes
# and seeds it with, and the bare site reads it through. couchdb's is the standard library's.
SERVICES: dict[str, tuple[Need, ...]] = {
    "memcached": _need(DATABASES_EXTRA, "pymemcache"),
    "memcached-pool": _need(DATABASES_EXTRA, "pymemcache"),
    "redis": _need(DATABASES_EXTRA, "redis"),
    "redis-cluster": _need(DATABASES_EXTRA, "redis"),
    "mariadb": _need(DATABASES_EXTRA, "pymysql", "MySQLdb"),
    "galera": _need(DATABASES_EXTRA, "pymysql"),
    "postgres": _need(DATABASES_EXTRA, "psycopg"),
    # The upstream rung's delaying server runs on uvloop.
    "upstream": _need(ASGI_EXTRA, "uvloop"),
}
# By store of ``layerbench writes`` (writes/writes_stores.py).
_ZODB = Need("zope", ("ZODB", "ZEO"))
_RELSTORAGE = Need("zope", ("ZODB", "relstorage"))
STORES: dict[str, tuple[Need, ...]] = {
    "relstorage-postgres": (_RELSTORAGE, Need("zope", ("psycopg2",)), *SERVICES["postgres"]),
    "relstorage-mariadb": (_RELSTORAGE, *SERVICES["mariadb"]),
    "zeo": (_ZODB,),
    "filestorage": (_ZODB,),
    "site-postgres": SERVICES["postgres"],
    "site-mariadb": SERVICES["mariadb"],
}
# A URL's scheme (--cache, --db, services check) as the service kind it names.
URL_KINDS = {
    "memcached": "memcached",
    "redis": "redis",
    "redis-cluster": "redis-cluster",
    "mysql": "mariadb",
    "mariadb": "mariadb",
    "postgres": "postgres",
    "postgresql": "postgres",
}


def installed(module: str) -> bool:
    """Whether ``module`` can be imported, found without importing it (nor its parents)."""
    head, *rest = module.split(".")
    try:
        spec = importlib.util.find_spec(head)
    except (ImportError, ValueError):
        return False
    for part in rest:
        if spec is None or not spec.submodule_search_locations:
            return False
        spec = importlib.machinery.PathFinder.find_spec(
            f"{spec.name}.{part}", list(spec.submodule_search_locations)
        )
    return spec is not None


def missing(needs: Iterable[Need]) -> str | None:
    """The first extra of ``needs`` that is not installed (None: all are)."""
    for need in needs:
        if not all(installed(module) for module in need.modules):
            return need.extra
    return None


def require(what: str, needs: Iterable[Need]) -> None:
    """A MissingExtraError naming ``what`` and its extra when one of ``needs`` is missing."""
    extra = missing(needs)
    if extra is not None:
        raise MissingExtraError(what, extra)


def require_server(name: str) -> None:
    require(f"the {name} server", SERVERS.get(name, ()))


def require_app(name: str) -> None:
    require(f"the {name} application", APPLICATIONS.get(name, ()))


def require_service(kind: str) -> None:
    require(f"the {kind} service", SERVICES.get(kind, ()))


def require_rung(name: str, full: bool) -> None:
    """The rung named ``name`` on that ladder: the services it reads (an unknown name is left
    to the command, which says which rungs there are)."""
    for rung in selectable_of(full):
        if rung.name == name:
            for kind in rung.needs:
                require(f"the {name} rung", SERVICES.get(kind, ()))


def require_url(url: str, option: str) -> None:
    """The cache or database a URL names (``option`` says where it was given)."""
    scheme = urlsplit(url).scheme.split("+", 1)[0].lower() if "://" in url else ""
    kind = URL_KINDS.get(scheme)
    if kind is not None:
        require(f"{option} {scheme}://", SERVICES[kind])


def require_store(name: str) -> None:
    require(f"the {name} store", STORES.get(name.partition(":")[0], ()))


@dataclass
class Named:
    """What a command's options name, by kind."""

    servers: list[str] = field(default_factory=list)
    apps: list[str] = field(default_factory=list)
    rungs: list[str] | None = None  # None: none named (the ladder's own)
    services: list[str] = field(default_factory=list)
    stores: list[str] = field(default_factory=list)
    urls: list[tuple[str, str]] = field(default_factory=list)  # (option, URL)


def check_command(args: argparse.Namespace) -> None:
    """Before a command starts anything: every application, server, rung, service, store, cache
    and database its options name, refused in one line when its extra is not installed."""
    named = named_by(args)
    for server in named.servers:
        require_server(server)
    for app in named.apps:
        require_app(app)
    full = bool(getattr(args, "full", False))
    rungs = named.rungs
    if rungs is None and full:
        rungs = [rung.name for rung in ladder_of(full)]
    for rung in rungs or ():
        require_rung(rung, full)
    for kind in named.services:
        require_service(kind)
    for store in named.stores:
        require_store(store)
    for option, url in named.urls:
        require_url(url, option)


def named_by(args: argparse.Namespace) -> Named:
    """What ``args`` (any command's) names."""
    named = Named()
    command = getattr(args, "command", None)
    action = getattr(args, "services_action", None)
    # app serve's server is its own choice (gunicorn behind nginx, else waitress: the core's).
    if isinstance(server := getattr(args, "server", None), str) and command != "app":
        named.servers.append(server)
    # smoke's app is the user's package.module:callable, not one of ours.
    if isinstance(app := getattr(args, "app", None), str) and app in APPS:
        named.apps.append(app)
    named.apps += _split(getattr(args, "apps", None))
    if command == "matrix":
        for column in _split(args.servers):
            name, *parameters = column.split(":")
            named.servers.append(name)
            named.apps += [value for key, _, value in map(_pair, parameters) if key == "app"]
    rungs = [
        *_split(getattr(args, "rungs", None)),
        *[getattr(args, option, None) for option in ("rung", "hit_rung", "miss_rung")],
    ]
    if any(isinstance(rung, str) for rung in rungs):
        named.rungs = [rung for rung in rungs if isinstance(rung, str)]
    if command == "services" and action == "up":
        named.services += args.names
    if command == "services" and action == "check":
        named.urls.append(("services check", args.url))
    if command == "writes":
        named.stores += _split(args.store)
    for option in ("db", "cache"):
        if isinstance(value := getattr(args, option, None), str):
            named.urls.append((f"--{option}", value))
    return named


def _pair(parameter: str) -> tuple[str, str, str]:
    return parameter.partition("=")


def _split(text: object) -> list[str]:
    if not isinstance(text, str):
        return []
    return [part.strip() for part in text.split(",") if part.strip()]
