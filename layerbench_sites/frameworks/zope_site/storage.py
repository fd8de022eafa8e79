"""Where the Zope application's ZODB FileStorage lives.

``$LAYERBENCH_ZODB_PATH`` names the file, in a directory the lab's work directory provides;
without it, ``zope.fs`` beside the rung data's SQLite file (``$LAYERBENCH_DB_PATH``). The
directory must be writable by the server's workers (they may run as nobody): the ZEO server
they start (:mod:`zeo`) writes the file, its index, its lock and its pack files there,
and its socket, its log and the start lock are there too.

``$LAYERBENCH_ZOPE_STORAGE`` chooses the storage (``--set zope.storage=NAME``): ``filestorage``
(the default: that FileStorage behind ZEO), or RelStorage on the database
``$LAYERBENCH_ZOPE_RELSTORAGE_URL`` names (``relstorage-postgres``: PostgreSQL through
psycopg2; ``relstorage-mariadb``: MariaDB through MySQLdb, with the project's MariaDB
workarounds, :mod:`mariadb`). Under RelStorage the directory still holds the start lock.
"""

import os
from pathlib import Path
from urllib.parse import urlsplit

from layerbench.errors import ConfigError
from layerbench.site_contract import (
    ZOPE_FILESTORAGE,
    ZOPE_RELSTORAGE_MARIADB,
    ZOPE_RELSTORAGE_POSTGRES,
    ZOPE_RELSTORAGE_URL_VARIABLE,
    ZOPE_STORAGE_VARIABLE,
)
from layerbench_sites.app.app_config import AppConfig

ZODB_PATH_VARIABLE = "LAYERBENCH_ZODB_PATH"
# zope.conf's instancehome: the storage's directory (Zope keeps nothing else there).
ZOPE_HOME_VARIABLE = "LAYERBENCH_ZOPE_HOME"
ZEO_ADDRESS_VARIABLE = "LAYERBENCH_ZEO_ADDRESS"
DEFAULT_FILE_NAME = "zope.fs"
STORAGE_VARIABLE = ZOPE_STORAGE_VARIABLE
RELSTORAGE_URL_VARIABLE = ZOPE_RELSTORAGE_URL_VARIABLE
FILESTORAGE = ZOPE_FILESTORAGE
RELSTORAGE_POSTGRES = ZOPE_RELSTORAGE_POSTGRES
RELSTORAGE_MARIADB = ZOPE_RELSTORAGE_MARIADB
STORAGES = (FILESTORAGE, RELSTORAGE_POSTGRES, RELSTORAGE_MARIADB)
# What zope.conf's RelStorage variants read (ZConfig's ``$(NAME)``).
RELSTORAGE_DSN_VARIABLE = "LAYERBENCH_ZOPE_RELSTORAGE_DSN"
MARIADB_VARIABLES = {
    "host": "LAYERBENCH_ZOPE_MARIADB_HOST",
    "port": "LAYERBENCH_ZOPE_MARIADB_PORT",
    "user": "LAYERBENCH_ZOPE_MARIADB_USER",
    "database": "LAYERBENCH_ZOPE_MARIADB_DB",
}


def storage_path(config: AppConfig) -> Path:
    value = os.environ.get(ZODB_PATH_VARIABLE)
    path = Path(value) if value else config.db_path.parent / DEFAULT_FILE_NAME
    directory = path.parent
    if not directory.is_dir():
        raise ConfigError(f"the ZODB file {path}'s directory does not exist ({ZODB_PATH_VARIABLE})")
    if not os.access(directory, os.W_OK | os.X_OK):
        raise ConfigError(
            f"the ZODB file {path}'s directory is not writable by this process "
            f"(uid {os.getuid()}); FileStorage writes the file, its index and its lock there"
        )
    return path


def configure_zope(path: Path, zeo_address: Path) -> None:
    """Name the storage's directory and its ZEO server to zope.conf (ZConfig reads ``$(NAME)``
    from the environment)."""
    os.environ[ZODB_PATH_VARIABLE] = str(path)
    os.environ[ZOPE_HOME_VARIABLE] = str(path.parent)
    os.environ[ZEO_ADDRESS_VARIABLE] = str(zeo_address)


def chosen_storage() -> str:
    """The storage ``$LAYERBENCH_ZOPE_STORAGE`` names (FileStorage behind ZEO without it)."""
    storage = os.environ.get(STORAGE_VARIABLE) or FILESTORAGE
    if storage not in STORAGES:
        raise ConfigError(f"{STORAGE_VARIABLE} is one of {', '.join(STORAGES)}, not {storage!r}")
    if storage != FILESTORAGE and not os.environ.get(RELSTORAGE_URL_VARIABLE):
        raise ConfigError(f"{STORAGE_VARIABLE}={storage} needs {RELSTORAGE_URL_VARIABLE}")
    return storage


def configure_relstorage(path: Path, storage: str) -> None:
    """Name the storage's directory and its database to zope.conf's RelStorage variant."""
    os.environ[ZODB_PATH_VARIABLE] = str(path)
    os.environ[ZOPE_HOME_VARIABLE] = str(path.parent)
    url = urlsplit(os.environ[RELSTORAGE_URL_VARIABLE])
    if storage == RELSTORAGE_POSTGRES:
        # Keywords, not a URL: RelStorage appends its own (application_name=…) to the string.
        words = {
            "dbname": url.path.lstrip("/"),
            "user": url.username,
            "password": url.password,
            "host": url.hostname,
            "port": url.port,
        }
        dsn = " ".join(f"{key}={value}" for key, value in words.items() if value)
        os.environ[RELSTORAGE_DSN_VARIABLE] = dsn
        return
    parts = {
        "host": url.hostname or "127.0.0.1",
        "port": str(url.port or 3306),
        "user": url.username or "root",
        "database": url.path.lstrip("/"),
    }
    for key, variable in MARIADB_VARIABLES.items():
        os.environ[variable] = parts[key]
