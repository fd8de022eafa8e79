"""What the bare application reads on the ladder, put in place before its server starts: the
rung data in a SQLite file (alone in its directory, which a server's unprivileged workers are
given), and the demo site with its video and comments, for the page and write rungs.

On the embedded defaults the site is a second SQLite file beside the first and its page cache
is in-process; with the full ladder's services, the site and the ORM rungs are on PostgreSQL
and the page cache in memcached, shared by every worker."""

import secrets
from dataclasses import dataclass
from pathlib import Path

from layerbench.rungs.rung_data import (
    PAGE_VIDEO_COMMENTS,
    PAGE_VIDEO_PRETTYID,
    PAGE_VIDEO_TITLE,
    WRITE_VIDEO_PRETTYID,
)
from layerbench.rungs.sqlite_file import create_seeded_database
from layerbench_sites.app.app_config import (
    CACHE_URL_VARIABLE,
    DATABASE_URL_VARIABLE,
    ORM_URL_VARIABLE,
    SECRET_VARIABLE,
    ServiceUrls,
)
from layerbench_sites.app.videos import Catalog
from layerbench_sites.datalayer import migrate
from layerbench_sites.datalayer.open_repository import open_repository

SITE_FILE = "site.sqlite3"
ACTOR = "layerbench-lab"


@dataclass(frozen=True)
class AppData:
    db_path: Path
    # The application's environment under a server (besides the database's path).
    environment: dict[str, str]


def prepare_app_data(
    directory: Path, services: ServiceUrls | None = None, site_url: str | None = None
) -> AppData:
    """``site_url``: the site's database when it is not the default (PostgreSQL when it runs,
    the SQLite file otherwise)."""
    services = services or ServiceUrls()
    directory.mkdir(parents=True, exist_ok=True)
    db_path = create_seeded_database(directory)
    database_url = site_url or services.postgres or str(directory / SITE_FILE)
    seed_site(database_url)
    environment = {
        DATABASE_URL_VARIABLE: database_url,
        # Every worker signs and checks the form's token with the same key.
        SECRET_VARIABLE: secrets.token_hex(32),
        **services.environment(),
    }
    if services.postgres:
        environment[ORM_URL_VARIABLE] = services.postgres
    if services.memcached:
        environment[CACHE_URL_VARIABLE] = services.memcached
    return AppData(db_path, environment)


def seed_site(database_url: str | Path) -> None:
    """The demo site's schema, the video the page rungs show with its comments, and the one the
    write rung comments on."""
    migrate.upgrade(database_url)
    catalog = Catalog(open_repository(str(database_url)))
    try:
        catalog.create_video(
            {
                "prettyid": PAGE_VIDEO_PRETTYID,
                "title": PAGE_VIDEO_TITLE,
                "url": "https://example.com/hello-world",
                "description": "The video every page rung shows.",
                "tags": ["hello", "layerbench"],
            },
            ACTOR,
        )
        catalog.create_video(
            {
                "prettyid": WRITE_VIDEO_PRETTYID,
                "title": "Comments welcome",
                "url": "https://example.com/w",
            },
            ACTOR,
        )
        for number in range(1, PAGE_VIDEO_COMMENTS + 1):
            catalog.create_comment(
                PAGE_VIDEO_PRETTYID,
                {"name": f"viewer {number}", "body": f"Comment number {number}."},
                ACTOR,
            )
    finally:
        catalog.repository.connection.close()
