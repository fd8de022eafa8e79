"""``layerbench app serve``: the demo site (and the ladder's rungs) under gunicorn.

    layerbench app serve [--db URL] [--cache BACKEND] [--port PORT] [--host HOST]

The embedded default is a SQLite file and the in-process cache, one gunicorn process with
threads, on 127.0.0.1. With a page-cache directory (``--cache file:///DIR``), nginx listens on
the port in front of gunicorn and serves the cached pages' files itself. The database's schema
is brought up to date first; Ctrl-C stops the servers.
"""

import argparse
import secrets
import sys
import tempfile
import time
from contextlib import ExitStack
from pathlib import Path
from typing import Any

from layerbench.app.cache_select import LOCAL, NONE, page_directory_of
from layerbench.app.settings import CACHE_URL_VARIABLE, SECRET_VARIABLE, STORE_URL_VARIABLE
from layerbench.datalayer.open_store import is_sqlite, prepare
from layerbench.errors import ConfigError
from layerbench.servers.gunicorn import GunicornServer, GunicornSettings
from layerbench.servers.managed_server import ManagedServer
from layerbench.servers.nginx_front import NginxFront
from layerbench.servers.ports import LOOPBACK, free_port
from layerbench.services.sqlite import create_seeded_database
from layerbench.services.urls import ServiceUrl

DEFAULT_DB = "layerbench-site.sqlite3"
DEFAULT_PORT = 8000
WATCH_INTERVAL_S = 0.5


def add_parser(commands: Any) -> None:
    parser = commands.add_parser(
        "app",
        help="run the reference application (the demo site)",
        description="The reference application: videos, comments and tags as JSON "
        "(/videos, /openapi.json) and HTML (/), with the ladder's rungs under /ladder/.",
    )
    actions = parser.add_subparsers(dest="app_action", required=True, metavar="ACTION")
    serve = actions.add_parser("serve", help="serve it under gunicorn until Ctrl-C")
    serve.add_argument(
        "--db",
        default=DEFAULT_DB,
        metavar="URL",
        help=f"a SQLite file, postgresql://… or mysql://… (default: {DEFAULT_DB})",
    )
    serve.add_argument(
        "--cache",
        default=LOCAL,
        metavar="BACKEND",
        help=f"{LOCAL} (in-process, the default), memcached://HOST:PORT, redis://HOST:PORT, "
        f"file:///DIR (a page-cache directory that nginx, in front, serves) or {NONE}",
    )
    serve.add_argument("--port", type=int, default=DEFAULT_PORT, help="default: %(default)s")
    serve.add_argument(
        "--host", default=LOOPBACK, help="the address to bind (default: %(default)s)"
    )
    serve.add_argument("--workers", type=int, default=1, help="processes (default: 1)")
    serve.add_argument(
        "--threads", type=int, default=8, help="threads per process (default: %(default)s)"
    )
    serve.set_defaults(handler=run_serve)


def check(args: argparse.Namespace) -> None:
    if not 0 < args.port < 65536:
        raise ConfigError(f"--port {args.port}: a port from 1 to 65535")
    if args.workers < 1 or args.threads < 1:
        raise ConfigError("--workers and --threads: at least 1")
    check_cache(args.cache, args.workers)


def check_cache(cache: str, workers: int) -> None:
    if cache == LOCAL:
        if workers > 1:
            raise ConfigError(
                "the in-process cache belongs to one process, and its sweeps would not reach "
                "the others: use --workers 1 (with --threads), or --cache memcached://…, "
                "redis://… or file:///DIR"
            )
        return
    if cache == NONE or page_directory_of(cache) is not None:
        return
    try:
        kind = ServiceUrl.parse(cache).kind
    except ConfigError:
        kind = None
    if kind not in ("memcached", "redis"):
        raise ConfigError(
            f"--cache {cache}: use {LOCAL}, memcached://…, redis://…, file:///DIR or {NONE}"
        )


def run_serve(args: argparse.Namespace) -> int:
    check(args)
    database = str(Path(args.db).resolve()) if is_sqlite(args.db) else args.db
    try:
        prepare(database)
    except Exception as error:  # a driver's own error: unreachable, refused, not a database
        raise ConfigError(f"cannot use the database {args.db}: {error}") from None
    pages = page_directory_of(args.cache)
    with tempfile.TemporaryDirectory(prefix="layerbench-app-") as directory:
        workdir = Path(directory)
        # nginx's workers, unprivileged when we are root, reach their configuration through it.
        workdir.chmod(0o711)
        application = GunicornServer(
            workdir / "gunicorn",
            args.port if pages is None else free_port(),
            create_seeded_database(workdir),
            GunicornSettings(workers=args.workers, worker_class="gthread", threads=args.threads),
            host=args.host if pages is None else LOOPBACK,
            app_environment={
                STORE_URL_VARIABLE: database,
                CACHE_URL_VARIABLE: args.cache,
                SECRET_VARIABLE: secrets.token_hex(32),
            },
        )
        servers: list[ManagedServer] = [application]
        if pages is not None:
            upstream = f"{LOOPBACK}:{application.port}"
            front = NginxFront(workdir / "nginx", args.port, upstream, pages, host=args.host)
            servers.append(front)
        with ExitStack() as running:
            for server in servers:
                running.enter_context(server)
            base_url = servers[-1].base_url
            print(f"serving {base_url}/ (database {args.db}, cache {args.cache})", flush=True)
            print("Ctrl-C stops it", file=sys.stderr, flush=True)
            while True:
                for server in servers:
                    server.check_alive()
                time.sleep(WATCH_INTERVAL_S)
