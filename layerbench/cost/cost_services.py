"""The databases a cost pass reads when its settings put the application's data on a service,
as the ladder's do: ``--set site.database=mariadb`` (the demo site on MariaDB) and, for Zope,
``--set zope.storage=relstorage-postgres|relstorage-mariadb`` (RelStorage). The service is
started throwaway on loopback as the ladder starts it (``LadderServices``, with the book's own
sections: ``mariadb.profile``…), and each repeat gets a database of its own on it: a repeat's
writes (the write rung's comments, Zope's objects) never reach another's, so every repeat
counts the same work. Only the application's process is counted, never the database server's.

Any other section is a server's (``gunicorn.workers``): a cost pass runs under no server. The
ladder's book is read for the sections here; ``layerbench cost --set`` refuses the others."""

import itertools
from collections.abc import Iterator
from dataclasses import dataclass, field

from layerbench.errors import ConfigError
from layerbench.lab.app_storage import (
    made_database,
    storage_environment,
    storage_sections,
    storage_services,
    storage_services_possible,
)
from layerbench.lab.ladder_services import LadderServices
from layerbench.lab.site_database import SITE_SECTION, site_services, site_url
from layerbench.rungs.applications import Application
from layerbench.servers.server_settings import SettingsBook

# The sections a cost pass reads: the data's, and those of the services it may start.
READ_SECTIONS = (SITE_SECTION, *storage_sections(), *sorted(storage_services_possible()))


def cost_settings(book: SettingsBook) -> SettingsBook:
    """The sections of ``book`` a cost pass reads (a ladder's book holds its server's too)."""
    return {section: dict(values) for section, values in book.items() if section in READ_SECTIONS}


def check_cost_sections(book: SettingsBook) -> None:
    """A ConfigError naming a section a cost pass does not read (a server's, or a typo)."""
    unread = sorted(set(book) - set(READ_SECTIONS))
    if unread:
        raise ConfigError(
            f"cost calls the application in-process, under no server: no setting of "
            f"{', '.join(unread)} is read; it reads {', '.join(READ_SECTIONS)}"
        )


def services_read(app: Application, book: SettingsBook) -> tuple[str, ...]:
    """The services the application's data is on, by these settings (none by default)."""
    return tuple(dict.fromkeys((*site_services(book), *storage_services((app,), book))))


@dataclass
class RepeatDatabases:
    """Use as a context manager: the services run inside it; each call of :meth:`next_repeat`
    makes the next repeat's databases on them."""

    app: Application
    book: SettingsBook
    services: LadderServices = field(init=False)
    _numbers: Iterator[int] = field(default_factory=lambda: itertools.count(1), init=False)

    def __post_init__(self) -> None:
        self.services = LadderServices(services_read(self.app, self.book), book=self.book)

    def __enter__(self) -> "RepeatDatabases":
        self.services.__enter__()
        if self.services.missing:
            self.services.__exit__(None, None, None)
            kind, why = next(iter(self.services.missing.items()))
            raise ConfigError(f"the settings put the data on {kind}: {why}")
        return self

    def __exit__(self, *exc: object) -> None:
        self.services.__exit__(None, None, None)

    def next_repeat(self) -> tuple[str | None, dict[str, str]]:
        """The next repeat's site database URL (None: the default, a SQLite file) and the
        application's storage variables (none but for a storage on a service)."""
        number = next(self._numbers)
        urls, missing = self.services.urls, self.services.missing
        admin = site_url(self.book, urls, missing)
        site = made_database("mariadb", admin, f"site_{number}") if admin else None
        return site, storage_environment(self.app, self.book, urls, number)
