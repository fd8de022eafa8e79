"""The demo site under gunicorn (gthread, as ``layerbench app serve`` runs it) on a new SQLite
database, for tests of what the real server hands the application: chunked bodies, odd
queries, a worker's memory."""

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from layerbench.proc.ports import free_port
from layerbench.rungs.sqlite_file import create_seeded_database
from layerbench.servers.gunicorn import GunicornServer, GunicornSettings
from layerbench_sites.app.app_config import DATABASE_URL_VARIABLE
from layerbench_sites.datalayer.open_repository import prepare
from tests.app_server import Client
from tests.proc_scan import gunicorn_workers


@dataclass
class GunicornSite:
    server: GunicornServer
    client: Client

    def worker(self) -> int:
        """The pid of its one worker process."""
        [worker] = gunicorn_workers(self.server.session)
        return worker


@contextmanager
def gunicorn_site(
    tmp_path: Path, environment: dict[str, str] | None = None
) -> Iterator[GunicornSite]:
    """One worker of 4 threads on ``tmp_path/site.sqlite3``, with ``environment`` added to the
    application's; it must still be running when the block ends."""
    url = str(tmp_path / "site.sqlite3")
    prepare(url)
    server = GunicornServer(
        tmp_path / "gunicorn",
        free_port(),
        create_seeded_database(tmp_path),
        GunicornSettings(worker_class="gthread", threads=4),
        app_environment={DATABASE_URL_VARIABLE: url, **(environment or {})},
    )
    with server:
        yield GunicornSite(server, Client(server.port))
        server.check_alive()
