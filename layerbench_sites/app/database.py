"""The ladder's database rungs' connections: the rung data's SQLite file through DB-API, and
the ORM's engine (on that file, or on the full ladder's server database), each opened lazily
and never shared across a fork.

Servers import the application once and may fork workers afterwards (gunicorn ``--preload``,
mod_wsgi's ``WSGIImportScript``): a connection or pool opened before the fork must not be used
after it, so each is keyed by the process id that opened it.
"""

import sqlite3
from pathlib import Path

from sqlalchemy.orm import Session

from layerbench_sites.app.per_thread import PerThread
from layerbench_sites.app.process_engine import ProcessEngine
from layerbench_sites.datalayer.migrate import sqlalchemy_url


class Database:
    def __init__(self, path: Path, orm_url: str | None = None) -> None:
        """The DB-API rung reads the SQLite file at ``path``; the ORM reads ``orm_url`` (a
        server database of the full ladder) or else that file."""
        self._connections = PerThread(lambda: sqlite3.connect(path))
        self._orm = ProcessEngine(sqlalchemy_url(orm_url or path))

    def connection(self) -> sqlite3.Connection:
        """This thread's DB-API connection (the ``db-raw`` rung)."""
        return self._connections.get()

    def session(self) -> Session:
        """A new ORM session on this process's engine (the ``orm`` and ``template`` rungs)."""
        return self._orm.session()
