"""How the application is configured: explicitly in tests, from the environment under a server."""

import os
import secrets
from dataclasses import dataclass, field
from pathlib import Path

from layerbench.errors import ConfigError

DB_PATH_VARIABLE = "LAYERBENCH_DB_PATH"
STORE_URL_VARIABLE = "LAYERBENCH_STORE_URL"
SECRET_VARIABLE = "LAYERBENCH_SECRET"
CACHE_URL_VARIABLE = "LAYERBENCH_CACHE_URL"


@dataclass(frozen=True)
class AppSettings:
    # The ladder's rung data (a seeded SQLite file).
    db_path: Path
    # The demo site's database: a SQLite path or a postgres:// or mysql:// URL; without it,
    # only the ladder is served.
    store_url: str | None = None
    # Signs the HTML form's CSRF tokens; every worker of one site must share it (a random one
    # serves a single process).
    # The cache: ``local`` (in-process), memcached://… or redis://…
    cache_url: str | None = None
    secret: bytes = field(default_factory=lambda: secrets.token_bytes(32), repr=False)

    @classmethod
    def from_env(cls) -> "AppSettings":
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
            store_url=os.environ.get(STORE_URL_VARIABLE) or None,
            cache_url=os.environ.get(CACHE_URL_VARIABLE) or None,
            **({"secret": secret.encode()} if secret else {}),
        )
