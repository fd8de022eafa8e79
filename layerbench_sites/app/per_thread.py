"""One connection per thread and process, opened on first use.

Servers import the application once and may fork workers afterwards (gunicorn ``--preload``,
mod_wsgi's ``WSGIImportScript``), and may run requests on several threads: a connection is
used only by the thread, in the process, that opened it.
"""

import os
import threading
from collections.abc import Callable
from typing import Generic, TypeVar

T = TypeVar("T")


class PerThread(Generic[T]):
    def __init__(self, open_connection: Callable[[], T]) -> None:
        self._open = open_connection
        self._local = threading.local()

    def get(self) -> T:
        pid = os.getpid()
        if getattr(self._local, "pid", None) != pid:
            self._local.value = self._open()
            self._local.pid = pid
        value: T = self._local.value
        return value
