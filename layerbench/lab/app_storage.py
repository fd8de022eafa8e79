"""An application's storage in a run, as the application declares it
(:class:`layerbench.rungs.applications.StorageChoice`): ``--set SECTION.storage=NAME`` read and
checked against the storages it names, the throwaway service the chosen one needs started, and
the variables that give the application its choice and the database made for it on that
service (made if absent). Nothing here names an application: the run asks each application's
declaration."""

import dataclasses
import typing
from typing import Any

from layerbench.errors import ConfigError
from layerbench.rungs.applications import (
    APPLICATIONS,
    Application,
    Storage,
    StorageChoice,
    storage_choices,
)
from layerbench.servers.server_settings import SettingsBook, read_section
from layerbench.services.mariadb import connect_mariadb
from layerbench.services.urls import ServiceUrl


def settings_type(choice: StorageChoice) -> type[Any]:
    """The dataclass its section is read into: ``storage``, one of the storages' names (the
    first by default), refused otherwise as any setting out of its choices is."""
    allowed = typing.Literal.__getitem__(choice.names)
    default = dataclasses.field(default=choice.names[0])
    return dataclasses.make_dataclass(
        f"{choice.section.title()}StorageSettings", [("storage", allowed, default)], frozen=True
    )


def settings_types() -> dict[str, type[Any]]:
    """Every application's storage section and the dataclass it is read into."""
    return {choice.section: settings_type(choice) for choice in storage_choices()}


def storage_sections() -> tuple[str, ...]:
    return tuple(choice.section for choice in storage_choices())


def storage_services_possible() -> tuple[str, ...]:
    """Every service an application's storage may need started."""
    return tuple(dict.fromkeys(kind for c in storage_choices() for kind in c.services))


def chosen(choice: StorageChoice, book: SettingsBook) -> Storage:
    name: str = read_section(settings_type(choice), book, choice.section).storage
    return choice.named(name)


def storage_services(apps: tuple[Application, ...], book: SettingsBook) -> tuple[str, ...]:
    """The services the applications' chosen storages need started (none by default)."""
    kinds = (chosen(app.storage, book).service for app in apps if app.storage is not None)
    return tuple(dict.fromkeys(kind for kind in kinds if kind is not None))


def storage_environment(
    app: Application, book: SettingsBook, urls: dict[str, str], repeat: int | None = None
) -> dict[str, str]:
    """The variables of the application's chosen storage (none for an application without a
    choice, or a storage that needs no service); its database, made on the service's first
    use, is the declared one (``repeat``: a cost pass's repeat has one of its own)."""
    if app.storage is None:
        return {}
    storage = chosen(app.storage, book)
    if storage.service is None:
        return {}
    database = app.storage.database if repeat is None else f"{app.storage.database}_{repeat}"
    made = made_database(storage.service, urls[storage.service], database)
    return {app.storage.choice_variable: storage.name, app.storage.url_variable: made}


def made_database(kind: str, service_url: str, database: str) -> str:
    """The URL of the database ``database`` on the service at ``service_url``, made if
    absent."""
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
    """A ConfigError for a storage that needs a service, in a run that does not start it."""
    for app in APPLICATIONS.values():
        if app.storage is None:
            continue
        storage = chosen(app.storage, book)
        if storage.service is not None:
            raise ConfigError(
                f"{app.storage.section}.storage={storage.name} is a setting of layerbench "
                f"ladder; layerbench {command} runs {app.name} on {app.storage.names[0]}"
            )
