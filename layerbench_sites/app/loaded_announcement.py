"""A server's process saying it has loaded the application: a file named by its process id in
``$LAYERBENCH_LOADED_DIR``, which the lab sets for a server it starts and reads before it counts
the start as ready (:mod:`layerbench.servers.loaded_workers`). mod_wsgi's daemon processes take
requests while they still import the application; a start ready at its first answer measured
the others' imports (Zope's c=1 cell read 1 req/s).

A process forked from one that has loaded it (uWSGI's workers from its master) says nothing:
uWSGI forks in C, without Python's fork hooks; its adapter waits for the master alone."""

import os
from pathlib import Path

from layerbench.site_contract import LOADED_DIR_VARIABLE


def announce_loaded() -> None:
    """Say that this process has the application loaded; nothing when no one listens (no
    ``$LAYERBENCH_LOADED_DIR``)."""
    directory = os.environ.get(LOADED_DIR_VARIABLE)
    if directory:
        (Path(directory) / str(os.getpid())).touch()
