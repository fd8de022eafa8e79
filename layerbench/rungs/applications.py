"""The applications that can answer the ladder's rungs, by name (``--app NAME``).

Every server adapter loads ``layerbench_sites.app.entry:application``; an application other than the
bare one is named to it by ``$LAYERBENCH_WSGI_APP`` (its ``entry``), so each server runs each
application unchanged. Each reads its configuration from the same environment as the bare one
(:mod:`layerbench_sites.app.app_config`): the rung data's SQLite file, the site's database, the
cache.
A rung an application does not answer is not applicable to it, never faked.

An application declares here what a run must do for it beyond serving its entry (today: a
storage of its own, which may need a throwaway service started and a database made on it); the
experiments ask the declaration and never name an application."""

from dataclasses import dataclass

from layerbench import site_contract
from layerbench.errors import ConfigError
from layerbench.rungs.app_layers import (
    DJANGO_LAYERS,
    FLASK_LAYERS,
    PYRAMID_LAYERS,
    RAILS_LAYERS,
    ZOPE_LAYERS,
    Layers,
)
from layerbench.words import did_you_mean

# The rungs a framework's application answers: the seed's framework rungs.
FRAMEWORK_RUNGS = frozenset({"string", "template", "orm", "page", "cached-page", "write"})
# And the upstream rung's view (a GET of the delaying server), where a framework has one.
WAITING_RUNGS = FRAMEWORK_RUNGS | {"upstream"}


@dataclass(frozen=True)
class Storage:
    """A storage an application can keep its data on."""

    name: str
    # The throwaway service a run starts for it, a database made on it (None: nothing started,
    # the storage is the application's own).
    service: str | None = None


@dataclass(frozen=True)
class StorageChoice:
    """An application's choice of storage, ``--set SECTION.storage=NAME``: the storages it can
    use (the first is the default), the variables that tell the application the choice and the
    URL of the database made for it, and that database's name on the service."""

    section: str
    storages: tuple[Storage, ...]
    choice_variable: str
    url_variable: str
    database: str

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(storage.name for storage in self.storages)

    @property
    def services(self) -> tuple[str, ...]:
        """Every service one of its storages may need started."""
        return tuple(dict.fromkeys(s.service for s in self.storages if s.service is not None))

    def named(self, name: str) -> Storage:
        """The storage ``name`` names (a checked setting: one of :attr:`names`)."""
        return next(storage for storage in self.storages if storage.name == name)


@dataclass(frozen=True)
class Application:
    name: str
    # package.module:callable; None for the bare application, which layerbench_sites.app.entry is.
    entry: str | None
    # The rung names it answers (None: every rung the bare application answers).
    answers: frozenset[str] | None
    description: str
    # The interface its entry speaks: "wsgi" (PEP 3333, loaded through layerbench_sites.app.entry)
    # or "asgi" (loaded through layerbench_sites.app.asgi_entry, named by $LAYERBENCH_ASGI_APP);
    # "rack" is Ruby's (no Python entry: only the Ruby servers, passenger and puma, run it).
    interface: str = "wsgi"

    # Its own text for a rung's layer, by rung name (app_layers.py; none: the rung's own, the
    # bare application's).
    layers: Layers = ()
    # The storage it keeps its data on, chosen by a setting (None: the site's database only).
    storage: StorageChoice | None = None

    def answers_rung(self, name: str) -> bool:
        return self.answers is None or name in self.answers

    def layer_of(self, rung: str, default: str) -> str:
        """What the rung named ``rung`` measures in this application (``default``: the rung
        definition's text)."""
        return dict(self.layers).get(rung, default)


BARE = Application("bare", None, None, "layerbench's own WSGI application (Falcon for the site)")
DJANGO = Application(
    "django",
    "layerbench_sites.frameworks.django_site.wsgi:application",
    WAITING_RUNGS,
    "Django 5.2: views, URLconf, Django templates, the Django ORM, Django's cache framework",
    layers=DJANGO_LAYERS,
)
FLASK = Application(
    "flask",
    "layerbench_sites.frameworks.flask_site.wsgi:application",
    WAITING_RUNGS,
    "Flask 3: Jinja2, SQLAlchemy 2, its own page cache and sweeper",
    layers=FLASK_LAYERS,
)
PYRAMID = Application(
    "pyramid",
    "layerbench_sites.frameworks.pyramid_site.wsgi:application",
    WAITING_RUNGS,
    "Pyramid 2: Chameleon templates, SQLAlchemy, deployed through a paste.deploy ini",
    layers=PYRAMID_LAYERS,
)
ZOPE = Application(
    "zope",
    "layerbench_sites.frameworks.zope_site.wsgi:application",
    # Not write: a comment is the site's SQL rows (the ids registry, the audit triggers), which
    # a ZODB object is not. The pages are built from the video copied into ZODB at start.
    FRAMEWORK_RUNGS - {"write"},
    "Zope 6 through paste.deploy: Zope Page Templates, objects in ZODB (FileStorage behind ZEO)",
    layers=ZOPE_LAYERS,
    # Its FileStorage behind ZEO (the application starts the ZEO server), or RelStorage on a
    # database of its own made on the run's throwaway PostgreSQL or MariaDB.
    storage=StorageChoice(
        "zope",
        (
            Storage(site_contract.ZOPE_FILESTORAGE),
            Storage(site_contract.ZOPE_RELSTORAGE_POSTGRES, "postgres"),
            Storage(site_contract.ZOPE_RELSTORAGE_MARIADB, "mariadb"),
        ),
        site_contract.ZOPE_STORAGE_VARIABLE,
        site_contract.ZOPE_RELSTORAGE_URL_VARIABLE,
        "zodb",
    ),
)

STARLETTE = Application(
    "starlette",
    "layerbench_sites.frameworks.starlette_site.asgi:application",
    WAITING_RUNGS,
    "Starlette (ASGI): Jinja2, async SQLAlchemy 2 (aiosqlite, psycopg, aiomysql), async cache",
    interface="asgi",
)
FASTAPI = Application(
    "fastapi",
    "layerbench_sites.frameworks.fastapi_site.asgi:application",
    WAITING_RUNGS,
    "FastAPI (ASGI): Pydantic models for the API, the Starlette site's async data layer",
    interface="asgi",
)
DJANGO_ASGI = Application(
    "django-asgi",
    "layerbench_sites.frameworks.django_asgi_site.asgi:application",
    WAITING_RUNGS,
    "Django 5.2 through its ASGI handler: async views, Django's async ORM where it is async",
    interface="asgi",
)
RAILS = Application(
    "rails",
    None,  # rails_site/config.ru, deployed by layerbench.servers.rails_app
    FRAMEWORK_RUNGS,
    "Rails 6.1 (Ruby): ERB, ActiveRecord, caches_page and a cache_sweeper (seed 000)",
    interface="rack",
    layers=RAILS_LAYERS,
)

# The application every run serves by default and compares the others with.
REFERENCE = BARE

APPLICATIONS: dict[str, Application] = {
    app.name: app
    for app in (BARE, DJANGO, FLASK, PYRAMID, ZOPE, STARLETTE, FASTAPI, DJANGO_ASGI, RAILS)
}


def storage_choices() -> tuple[StorageChoice, ...]:
    """Every application's choice of storage (each its own settings section)."""
    return tuple(app.storage for app in APPLICATIONS.values() if app.storage is not None)


def find_application(name: str) -> Application:
    try:
        return APPLICATIONS[name]
    except KeyError:
        raise ConfigError(
            did_you_mean(
                f"no application named {name!r}",
                name,
                APPLICATIONS,
                f"the applications are {', '.join(APPLICATIONS)}",
            )
        ) from None
