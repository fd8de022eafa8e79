"""How the application is configured: explicitly in tests, from the environment under a server."""

import os
import re
import secrets
from dataclasses import dataclass, field
from pathlib import Path

from layerbench.errors import ConfigError
from layerbench.site_contract import (
    CACHE_MAX_BYTES_VARIABLE,
    CACHE_URL_VARIABLE,
    DATABASE_URL_VARIABLE,
    DB_PATH_VARIABLE,
    ORM_URL_VARIABLE,
    SECRET_VARIABLE,
    SERVICE_URL_VARIABLES,
    ServiceUrls,
)
from layerbench_sites.app.cache import DEFAULT_MAX_BYTES

__all__ = [
    "CACHE_MAX_BYTES_VARIABLE",
    "CACHE_URL_VARIABLE",
    "DATABASE_URL_VARIABLE",
    "DB_PATH_VARIABLE",
    "ORM_URL_VARIABLE",
    "SECRET_VARIABLE",
    "SERVICE_URL_VARIABLES",
    "AppConfig",
    "ServiceUrls",
    "cache_max_bytes_from_env",
]


@dataclass(frozen=True)
class AppConfig:
    # The ladder's rung data (a seeded SQLite file).
    db_path: Path
    # The demo site's database: a SQLite path or a postgres:// or mysql:// URL; without it,
    # only the ladder is served.
    database_url: str | None = None
    # Signs the HTML form's CSRF tokens; every worker of one site must share it (a random one
    # serves a single process).
    # The cache: ``local`` (in-process), memcached://… or redis://…
    cache_url: str | None = None
    # The in-process cache's bound, in bytes.
    cache_max_bytes: int = DEFAULT_MAX_BYTES
    # The database of the ORM and template rungs (a postgres:// or mysql:// URL); without it,
    # db_path.
    orm_url: str | None = None
    services: ServiceUrls = field(default_factory=ServiceUrls)
    secret: bytes = field(default_factory=lambda: secrets.token_bytes(32), repr=False)

    @classmethod
    def from_env(cls) -> "AppConfig":
        value = os.environ.get(DB_PATH_VARIABLE)
        if not value:
            raise ConfigError(
                f"{DB_PATH_VARIABLE} is not set: it names the SQLite database to serve"
            )
        path = Path(value)
        if not path.is_file():
            # sqlite3 would quietly create an empty database and fail on the first query.
            raise ConfigError(f"{DB_PATH_VARIABLE} names {path}, which does not exist")
        secret = os.environ.get(SECRET_VARIABLE)
        return cls(
            db_path=path,
            database_url=os.environ.get(DATABASE_URL_VARIABLE) or None,
            cache_url=os.environ.get(CACHE_URL_VARIABLE) or None,
            cache_max_bytes=cache_max_bytes_from_env(),
            orm_url=os.environ.get(ORM_URL_VARIABLE) or None,
            services=ServiceUrls.from_env(),
            **({"secret": secret.encode()} if secret else {}),
        )


def cache_max_bytes_from_env() -> int:
    """``$LAYERBENCH_CACHE_MAX_BYTES``: the in-process cache's bound, a number of bytes."""
    value = os.environ.get(CACHE_MAX_BYTES_VARIABLE)
    if not value:
        return DEFAULT_MAX_BYTES
    if not re.fullmatch(r"[0-9]{1,15}", value) or int(value) < 1:
        raise ConfigError(f"{CACHE_MAX_BYTES_VARIABLE}={value}: a number of bytes, at least 1")
    return int(value)
