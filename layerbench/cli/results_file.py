"""Where a run's results go: a JSON file checked before the run starts (or ``-``, stdout), and
the timestamps a result records."""

import os
from datetime import UTC, datetime
from pathlib import Path

from layerbench.errors import ConfigError


def check_writable(path: Path) -> None:
    if str(path) == "-":
        return
    directory = path.parent if str(path.parent) else Path(".")
    if not directory.is_dir() or not os.access(directory, os.W_OK):
        raise ConfigError(
            f"cannot write results to {path}: {directory} is not a writable directory"
        )


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")
