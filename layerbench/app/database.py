"""The ladder's database rungs' connections: the rung data's SQLite file through DB-API, and
the ORM's engine (on that file, or on the full ladder's server database), each opened lazily
and never shared across a fork.

Servers import the application once and may fork workers afterwards (gunicorn ``--preload``,
mod_wsgi's ``WSGIImportScript``): a connection or pool opened before the fork must not be used
after it, so each is keyed by the process id that opened it.
"""

import os
import sqlite3
import threading
from pathlib import Path

from sqlalchemy import Engine, create_engine
from sqlalchemy.orm import Session

from layerbench.app.per_thread import PerThread
from layerbench.datalayer.migrate import sqlalchemy_url


class Database:
    def __init__(self, path: Path, orm_url: str | None = None) -> None:
        """The DB-API rung reads the SQLite file at ``path``; the ORM reads ``orm_url`` (a
        server database of the full ladder) or else that file."""
        self._orm_url = sqlalchemy_url(orm_url or path)
        self._connections = PerThread(lambda: sqlite3.connect(path))
        self._engine: Engine | None = None
        self._engine_pid = 0
        self._engine_lock = threading.Lock()

    def connection(self) -> sqlite3.Connection:
        """This thread's DB-API connection (the ``db-raw`` rung)."""
        return self._connections.get()

    def session(self) -> Session:
        """A new ORM session on this process's engine (the ``orm`` and ``template`` rungs)."""
        return Session(self._process_engine())

    def _process_engine(self) -> Engine:
        pid = os.getpid()
        if self._engine is None or self._engine_pid != pid:
            with self._engine_lock:
                if self._engine is None or self._engine_pid != pid:
                    self._engine = create_engine(self._orm_url)
                    self._engine_pid = pid
        return self._engine
