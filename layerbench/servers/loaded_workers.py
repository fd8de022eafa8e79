"""The lab's side of :mod:`layerbench_sites.app.loaded_announcement`: the directory a server's
processes announce in, made empty before each start, and how many have announced."""

import shutil
from pathlib import Path

LOADED_DIR_NAME = "loaded-workers"


def fresh_loaded_dir(workdir: Path) -> Path:
    """An empty directory in ``workdir`` that every account can write to (Apache's and
    mod_wsgi's processes run as an unprivileged one)."""
    directory = workdir / LOADED_DIR_NAME
    shutil.rmtree(directory, ignore_errors=True)
    directory.mkdir()
    directory.chmod(0o1777)
    return directory


def not_loaded_reason(directory: Path, expected: int) -> str | None:
    """None once ``expected`` processes have announced (a process that announced and exited
    still counts: Apache may stop a spare child); otherwise how many have."""
    loaded = loaded_count(directory)
    if loaded >= expected:
        return None
    return f"{loaded} of {expected} worker processes have loaded the application"


def loaded_count(directory: Path) -> int:
    """How many processes have announced in ``directory`` (a start's progress)."""
    return sum(1 for entry in directory.iterdir() if entry.name.isdigit())
