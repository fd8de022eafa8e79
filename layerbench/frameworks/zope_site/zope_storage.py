"""Where the Zope application's ZODB FileStorage lives, and opening it in one process only.

``$LAYERBENCH_ZODB_PATH`` names the file, in a directory the lab's work directory provides;
without it, ``zope.fs`` beside the rung data's SQLite file (``$LAYERBENCH_DB_PATH``). The
directory must be writable by the server's workers (they may run as nobody): FileStorage writes
the file, its index, its lock and its pack files there.
"""

import os
from pathlib import Path

from layerbench.app.app_config import AppConfig
from layerbench.errors import ConfigError

ZODB_PATH_VARIABLE = "LAYERBENCH_ZODB_PATH"
# zope.conf's instancehome: the storage's directory (Zope keeps nothing else there).
ZOPE_HOME_VARIABLE = "LAYERBENCH_ZOPE_HOME"
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


def configure_zope(path: Path) -> None:
    """Name the storage to zope.conf (ZConfig reads ``$(NAME)`` from the environment)."""
    os.environ[ZODB_PATH_VARIABLE] = str(path)
    os.environ[ZOPE_HOME_VARIABLE] = str(path.parent)


class StorageInUseError(ConfigError):
    """Another process has the FileStorage open: ZODB's FileStorage is single-process."""

    def __init__(self, path: Path) -> None:
        super().__init__(
            f"the ZODB FileStorage {path} is open in another process (pid {_holder(path)}): "
            "FileStorage serves one process; run this application with one worker process "
            "(threads are fine), or on ZEO"
        )


def _holder(path: Path) -> str:
    """The pid zc.lockfile wrote into the lock file, if it can be read."""
    try:
        return Path(f"{path}.lock").read_text().strip() or "unknown"
    except OSError:
        return "unknown"
