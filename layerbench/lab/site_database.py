"""The demo site's database in a ladder run, ``--set site.database=default|mariadb``: by
default the full ladder's PostgreSQL (a SQLite file on the embedded defaults); ``mariadb``
puts the site on the run's MariaDB instead, as seed 000's Rails site on MySQL was."""

from dataclasses import dataclass
from typing import Literal

from layerbench.errors import ConfigError
from layerbench.servers.server_settings import SettingsBook, read_section

SITE_SECTION = "site"


@dataclass(frozen=True)
class SiteSettings:
    database: Literal["default", "mariadb"] = "default"


def site_services(book: SettingsBook) -> tuple[str, ...]:
    """The services the site's database needs started, beyond the rungs' own."""
    settings = read_section(SiteSettings, book, SITE_SECTION)
    return ("mariadb",) if settings.database == "mariadb" else ()


def site_url(book: SettingsBook, urls: dict[str, str], missing: dict[str, str]) -> str | None:
    """The site's database URL when the settings choose one (None: the default)."""
    if not site_services(book):
        return None
    if "mariadb" not in urls:
        raise ConfigError(
            f"site.database=mariadb: {missing.get('mariadb', 'MariaDB did not start')}"
        )
    return urls["mariadb"]


def refuse_site_outside_ladder(book: SettingsBook, command: str) -> None:
    """A ConfigError for a site database chosen in a run that does not start it."""
    if site_services(book):
        raise ConfigError(
            f"site.database is a setting of layerbench ladder; layerbench {command} starts "
            "no database for the site"
        )
