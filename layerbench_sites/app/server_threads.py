"""How many threads of this process the server that embeds it runs requests on, asked of the
server itself: mod_wsgi (embedded, a child's ThreadsPerChild; daemon, its ``threads=``), mod_python
(the MPM's threads per child) and uWSGI (``threads``). The servers that run our own Python
(gunicorn, waitress, cheroot, paste, granian) have no such question: their adapter says it in
``$LAYERBENCH_THREADS_PER_PROCESS`` from the settings it starts them with. None under any other
server, or outside one: a process whose threads the application cannot know."""

import importlib
import os
from typing import Any

from layerbench.site_contract import THREADS_VARIABLE


def _module(name: str) -> Any:
    try:
        return importlib.import_module(name)
    except ImportError:  # not under that server (mod_python's apache needs its _apache)
        return None


def _mod_wsgi() -> int | None:
    module = _module("mod_wsgi")
    threads = getattr(module, "threads_per_process", None)
    return threads if isinstance(threads, int) else None


def _mod_python() -> int | None:
    apache = _module("mod_python.apache")
    if apache is None or not hasattr(apache, "mpm_query"):
        return None
    threads = apache.mpm_query(apache.AP_MPMQ_MAX_THREADS)
    return threads if isinstance(threads, int) else None


def _uwsgi() -> int | None:
    module = _module("uwsgi")
    options = getattr(module, "opt", None)
    if not isinstance(options, dict):
        return None
    value = options.get("threads")
    if isinstance(value, bytes):
        value = value.decode()
    return int(value) if isinstance(value, str) and value.isdigit() else None


def _adapter() -> int | None:
    value = os.environ.get(THREADS_VARIABLE, "")
    return int(value) if value.isdigit() else None


def threads_per_process() -> int | None:
    """The request threads of this process, when its server says; None when it does not."""
    for ask in (_mod_wsgi, _mod_python, _uwsgi, _adapter):
        threads = ask()
        if threads is not None and threads > 0:
            return threads
    return None
