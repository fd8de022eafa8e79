"""Where the Zope application's ZODB FileStorage lives.

``$LAYERBENCH_ZODB_PATH`` names the file, in a directory the lab's work directory provides;
without it, ``zope.fs`` beside the rung data's SQLite file (``$LAYERBENCH_DB_PATH``). The
directory must be writable by the server's workers (they may run as nobody): the ZEO server
they start (:mod:`zope_zeo`) writes the file, its index, its lock and its pack files there,
and its socket, its log and the start lock are there too.
"""

import os
from pathlib import Path

from layerbench.app.app_config import AppConfig
from layerbench.errors import ConfigError

ZODB_PATH_VARIABLE = "LAYERBENCH_ZODB_PATH"
# zope.conf's instancehome: the storage's directory (Zope keeps nothing else there).
ZOPE_HOME_VARIABLE = "LAYERBENCH_ZOPE_HOME"
ZEO_ADDRESS_VARIABLE = "LAYERBENCH_ZEO_ADDRESS"
DEFAULT_FILE_NAME = "zope.fs"


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
