"""A SQLAlchemy engine per process, created on its first use.

Servers import the application once and may fork workers afterwards (gunicorn ``--preload``,
mod_wsgi's ``WSGIImportScript``): a pool opened before the fork must not be used after it, so
the engine is keyed by the process id that created it.

Its pool holds a connection for each of the process's request threads when the server says how
many it runs (:mod:`~layerbench_sites.app.server_threads`), and never opens more. SQLAlchemy's
default
(5 kept, 10 more opened when needed and closed when given back) under Apache's 25 threads per
child made threads wait for a connection and others open and close one per request: 699
connections to MariaDB for 4,584 requests at c=50 (tests/e2e/test_seed_000_chain.py), 50 since.
"""

import os
import threading
from typing import Any

from sqlalchemy import URL, Engine, create_engine
from sqlalchemy.orm import Session

from layerbench_sites.app.server_threads import threads_per_process


def pool_arguments(threads: int | None) -> dict[str, Any]:
    """``create_engine``'s pool arguments for a process of ``threads`` request threads: one
    connection each, kept; SQLAlchemy's defaults when the number is not known."""
    return {} if threads is None else {"pool_size": threads, "max_overflow": 0}


class ProcessEngine:
    def __init__(self, url: str | URL) -> None:
        self._url = url
        self._engine: Engine | None = None
        self._pid = 0
        self._lock = threading.Lock()

    def session(self) -> Session:
        """A new ORM session on this process's engine."""
        return Session(self.engine())

    def engine(self) -> Engine:
        pid = os.getpid()
        if self._engine is None or self._pid != pid:
            with self._lock:
                if self._engine is None or self._pid != pid:
                    pool = pool_arguments(threads_per_process())
                    self._engine = create_engine(self._url, **pool)
                    self._pid = pid
        return self._engine
