"""How the application is configured: explicitly in tests, from the environment under a server."""

import os
from dataclasses import dataclass
from pathlib import Path

from layerbench.errors import ConfigError

DB_PATH_VARIABLE = "LAYERBENCH_DB_PATH"
STORE_URL_VARIABLE = "LAYERBENCH_STORE_URL"


@dataclass(frozen=True)
class AppSettings:
    # The ladder's rung data (a seeded SQLite file).
    db_path: Path
    # The demo site's database: a SQLite path or a postgres:// or mysql:// URL; without it,
    # only the ladder is served.
    store_url: str | None = None

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
        return cls(db_path=path, store_url=os.environ.get(STORE_URL_VARIABLE) or None)
