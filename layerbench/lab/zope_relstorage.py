"""The Zope application's storage in a ladder, ``--set zope.storage=NAME``: ``filestorage``
(its FileStorage behind ZEO, the default), ``relstorage-postgres`` or ``relstorage-mariadb``
(RelStorage on a database of its own, ``zodb``, made on the run's throwaway PostgreSQL or
MariaDB, which the run then starts for it). The application reads the choice and the database
from its environment (:mod:`layerbench_sites.frameworks.zope_site.zope_storage`)."""

from dataclasses import dataclass
from typing import Literal

from layerbench.errors import ConfigError
from layerbench.rungs.applications import Application
from layerbench.servers.server_settings import SettingsBook, read_section
from layerbench.services.mariadb import connect_mariadb
from layerbench.services.urls import ServiceUrl
from layerbench.site_contract import ZOPE_RELSTORAGE_MARIADB as RELSTORAGE_MARIADB
from layerbench.site_contract import ZOPE_RELSTORAGE_POSTGRES as RELSTORAGE_POSTGRES
from layerbench.site_contract import ZOPE_RELSTORAGE_URL_VARIABLE as RELSTORAGE_URL_VARIABLE
from layerbench.site_contract import ZOPE_STORAGE_VARIABLE as STORAGE_VARIABLE

SECTION = "zope"
ZOPE_APP = "zope"
DATABASE = "zodb"
SERVICE_OF = {RELSTORAGE_POSTGRES: "postgres", RELSTORAGE_MARIADB: "mariadb"}


@dataclass(frozen=True)
class ZopeSettings:
    storage: Literal["filestorage", "relstorage-postgres", "relstorage-mariadb"] = "filestorage"


def zope_storage(book: SettingsBook) -> str:
    return read_section(ZopeSettings, book, SECTION).storage


def storage_service(apps: tuple[Application, ...], book: SettingsBook) -> str | None:
    """The service the Zope application's storage needs (None: none, or no Zope)."""
    if not any(app.name == ZOPE_APP for app in apps):
        return None
    return SERVICE_OF.get(zope_storage(book))


def zope_environment(
    app: Application, book: SettingsBook, urls: dict[str, str], database: str = DATABASE
) -> dict[str, str]:
    """The storage's variables for the Zope application (nothing for another, or FileStorage);
    RelStorage's database (``database``: a cost pass's repeat has one of its own) is made on
    the service's first use."""
    storage = zope_storage(book)
    kind = SERVICE_OF.get(storage)
    if app.name != ZOPE_APP or kind is None:
        return {}
    made = made_database(kind, urls[kind], database)
    return {STORAGE_VARIABLE: storage, RELSTORAGE_URL_VARIABLE: made}


def made_database(kind: str, service_url: str, database: str = DATABASE) -> str:
    """The URL of the database ``database`` (``zodb``) on the service at ``service_url``, made
    if absent."""
    admin = ServiceUrl.parse(service_url)
    if kind == "postgres":
        import psycopg  # the databases extra's, imported where used

        with psycopg.connect(service_url, autocommit=True) as connection:
            found = connection.execute(
                "SELECT 1 FROM pg_database WHERE datname = %s", (database,)
            ).fetchone()
            if found is None:
                connection.execute(f'CREATE DATABASE "{database}"')
        return f"postgresql://{admin.user}@{admin.host}:{admin.port}/{database}"
    with connect_mariadb(service_url) as mariadb, mariadb.cursor() as cursor:
        cursor.execute(f"CREATE DATABASE IF NOT EXISTS `{database}`")
    return f"mysql://{admin.user or 'root'}@{admin.host}:{admin.port}/{database}"


def refuse_storage_outside_ladder(book: SettingsBook, command: str) -> None:
    """A ConfigError for a RelStorage choice in a run that does not start its database."""
    storage = zope_storage(book)
    if storage in SERVICE_OF:
        raise ConfigError(
            f"zope.storage={storage} is a setting of layerbench ladder; layerbench {command} "
            "runs Zope on its FileStorage behind ZEO"
        )
