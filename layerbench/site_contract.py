"""What the instrument and the measured sites agree on, and nothing else: the environment
variables a server hands the application, the entries servers load, the health path, the
headers and page-directory names both sides read. Plain values on the standard library, so that
the instrument can name them without importing a site (``layerbench_sites`` imports them from
here)."""

import os
from dataclasses import dataclass

from layerbench.errors import ConfigError

# The entries every server loads: the reference site, or the application $LAYERBENCH_WSGI_APP
# (or $LAYERBENCH_ASGI_APP) names.
WSGI_ENTRY = "layerbench_sites.app.entry:application"
ASGI_ENTRY = "layerbench_sites.app.asgi_entry:application"
WSGI_ENTRY_MODULE = WSGI_ENTRY.partition(":")[0]

# The ladder's rung data (a seeded SQLite file), the site's database, its secret, its cache.
DB_PATH_VARIABLE = "LAYERBENCH_DB_PATH"
DATABASE_URL_VARIABLE = "LAYERBENCH_DATABASE_URL"
SECRET_VARIABLE = "LAYERBENCH_SECRET"
CACHE_URL_VARIABLE = "LAYERBENCH_CACHE_URL"
ORM_URL_VARIABLE = "LAYERBENCH_ORM_URL"
CACHE_MAX_BYTES_VARIABLE = "LAYERBENCH_CACHE_MAX_BYTES"
# The directory where each process announces that it has loaded the application.
LOADED_DIR_VARIABLE = "LAYERBENCH_LOADED_DIR"
# The threads each server process runs the application in.
THREADS_VARIABLE = "LAYERBENCH_THREADS_PER_PROCESS"
# The user's own application (package.module:callable) and where to import it from.
USER_APP_VARIABLE = "LAYERBENCH_WSGI_APP"
USER_APP_PATH_VARIABLE = "LAYERBENCH_WSGI_APP_PATH"
ASGI_APP_VARIABLE = "LAYERBENCH_ASGI_APP"

SERVICE_URL_VARIABLES = {
    "memcached": "LAYERBENCH_MEMCACHED_URL",
    "redis": "LAYERBENCH_REDIS_URL",
    "mariadb": "LAYERBENCH_MARIADB_URL",
    "postgres": "LAYERBENCH_POSTGRES_URL",
    "couchdb": "LAYERBENCH_COUCHDB_URL",
    # The URL the upstream rung GETs: the delaying server's, with the run's delay in it.
    "upstream": "LAYERBENCH_UPSTREAM_URL",
}

# The Zope site's storage (--set zope.storage=NAME) and RelStorage's database.
ZOPE_STORAGE_VARIABLE = "LAYERBENCH_ZOPE_STORAGE"
ZOPE_RELSTORAGE_URL_VARIABLE = "LAYERBENCH_ZOPE_RELSTORAGE_URL"
ZOPE_FILESTORAGE = "filestorage"
ZOPE_RELSTORAGE_POSTGRES = "relstorage-postgres"
ZOPE_RELSTORAGE_MARIADB = "relstorage-mariadb"

# Every application answers this path with 200 "ok" once loaded: the servers' readiness probe.
HEALTH_PATH = "/health"
# The header a write's answer carries: how many times the repository tried it.
WRITE_ATTEMPTS_HEADER = "X-Write-Attempts"
# The page cache named by --cache: the in-process one, none at all.
LOCAL_CACHE = "local"
NO_CACHE = "none"
# A page directory's own names: the families file, a family's index page.
PAGE_FAMILIES = ".families"
PAGE_INDEX = "index"
# The largest request body every site reads (64 KiB), and what a front server lets through:
# a larger one is answered 413 (by the front server, so that no upstream connection is left
# with a body half sent).
MAX_BODY_BYTES = 64 * 1024
# The 413's document, in the API's words (the bare site's, and nginx's in front of it).
BODY_TOO_LARGE_TITLE = f"the body is over {MAX_BODY_BYTES} bytes"


@dataclass(frozen=True)
class ServiceUrls:
    """The full ladder's services, each with its rungs if given."""

    memcached: str | None = None
    redis: str | None = None
    mariadb: str | None = None
    postgres: str | None = None
    couchdb: str | None = None
    upstream: str | None = None

    @classmethod
    def from_env(cls) -> "ServiceUrls":
        return cls(
            **{kind: os.environ.get(name) or None for kind, name in SERVICE_URL_VARIABLES.items()}
        )

    def environment(self) -> dict[str, str]:
        """The variables that give these URLs to the application under a server."""
        return {
            name: value
            for kind, name in SERVICE_URL_VARIABLES.items()
            if (value := getattr(self, kind))
        }


def parse_spec(spec: str) -> tuple[str, str]:
    """``package.module:callable`` as (module, name); a ConfigError for anything else."""
    module, _, name = spec.partition(":")
    if not module or not name or not all(part.isidentifier() for part in module.split(".")):
        raise ConfigError(f"{spec!r} is not package.module:callable")
    return module, name
