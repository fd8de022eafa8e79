"""``layerbench app serve``: the demo site (and the ladder's rungs) under gunicorn.

    layerbench app serve [--db URL] [--cache BACKEND] [--port PORT] [--host HOST] [--quiet]
                         [--no-demo-data]

The embedded default is a SQLite file and the in-process cache, one gunicorn process with
threads, on 127.0.0.1. nginx, where installed, listens on the port in front of gunicorn (slow
or idle clients then cost gunicorn no thread), and with a page-cache directory
(``--cache file:///DIR``) serves the cached pages' files itself. Without nginx, waitress serves
in gunicorn's place, in one process: it reads every request whole before a thread gets it, so
slow clients hold none (they would hold gunicorn's); a page-cache directory or ``--workers`` over
1 is refused then. The database's schema is brought up to date first, and a new database gets
the demo videos; the database and the cache must answer before anything starts. The servers'
log, with an access log unless ``--quiet``, goes to stderr; Ctrl-C stops the servers.
"""

import argparse
import secrets
import sys
import time
from contextlib import ExitStack
from pathlib import Path
from typing import Any

from layerbench.console.numbers import MAX_PORT, MAX_PROCESSES, MAX_THREADS, whole
from layerbench.errors import ConfigError, MissingBinaryError
from layerbench.proc.binaries import find_program
from layerbench.proc.ports import LOOPBACK, free_port
from layerbench.proc.work_dirs import work_directory
from layerbench.rungs.sqlite_file import create_seeded_database
from layerbench.servers.gunicorn import GunicornServer, GunicornSettings
from layerbench.servers.log_follower import LogFollower
from layerbench.servers.managed_server import ManagedServer
from layerbench.servers.nginx import APT_PACKAGE as NGINX_PACKAGE
from layerbench.servers.nginx_front import NginxFront
from layerbench.servers.waitress import WaitressServer, WaitressSettings
from layerbench.site_contract import (
    CACHE_URL_VARIABLE,
    DATABASE_URL_VARIABLE,
    MAX_BODY_BYTES,
    SECRET_VARIABLE,
)
from layerbench.site_contract import LOCAL_CACHE as LOCAL
from layerbench.site_contract import NO_CACHE as NONE
from layerbench.sites import (
    cache_kind,
    check_cache_usable,
    database_location,
    is_sqlite,
    page_directory_of,
    put_demo_data,
    schema_revision,
)
from layerbench.sites import (
    prepare_database as prepare_site_database,
)

DEFAULT_DB = "layerbench-site.sqlite3"
DEFAULT_PORT = 8000
WATCH_INTERVAL_S = 0.2
# waitress's connections without nginx: far more than slow clients should hold (64 slowloris
# connections in the tests), and within the 1024 descriptors a process is often allowed.
WAITRESS_CONNECTIONS = 1000


def add_parser(commands: Any) -> None:
    parser = commands.add_parser(
        "app",
        help="run the reference application (the demo site)",
        description="The reference application: videos, comments and tags as JSON "
        "(/videos, /openapi.json) and HTML (/), with the ladder's rungs under /ladder/.",
    )
    actions = parser.add_subparsers(dest="app_action", required=True, metavar="ACTION")
    serve = actions.add_parser(
        "serve", help="serve it (gunicorn behind nginx; waitress without nginx) until Ctrl-C"
    )
    serve.add_argument(
        "--db",
        default=DEFAULT_DB,
        metavar="URL",
        help="a SQLite file's path (or sqlite:///PATH), postgresql://… or mysql://… "
        f"(default: {DEFAULT_DB})",
    )
    serve.add_argument(
        "--cache",
        default=LOCAL,
        metavar="BACKEND",
        help=f"{LOCAL} (in-process, the default), memcached://HOST:PORT[,HOST:PORT…] (a pool), "
        "redis://HOST:PORT, "
        f"file:///DIR (a page-cache directory that nginx, in front, serves) or {NONE}",
    )
    serve.add_argument(
        "--port", type=whole(1, MAX_PORT), default=DEFAULT_PORT, help="default: %(default)s"
    )
    serve.add_argument(
        "--host", default=LOOPBACK, help="the address to bind (default: %(default)s)"
    )
    serve.add_argument(
        "--workers", type=whole(1, MAX_PROCESSES), default=1, help="processes (default: 1)"
    )
    serve.add_argument(
        "--threads",
        type=whole(1, MAX_THREADS),
        default=8,
        help="threads per process (default: %(default)s)",
    )
    serve.add_argument(
        "--quiet", action="store_true", help="no access log (errors are still logged)"
    )
    serve.add_argument(
        "--demo-data",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="put a few videos with comments and tags on a new database (default: yes; "
        "a database that has its schema already is left as it is)",
    )
    serve.set_defaults(handler=cmd_serve)


def check(args: argparse.Namespace) -> None:
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
    if cache_kind(cache) not in ("memcached", "redis"):
        raise ConfigError(
            f"--cache {cache}: use {LOCAL}, memcached://…, redis://…, file:///DIR or {NONE}"
        )


def cmd_serve(args: argparse.Namespace) -> int:
    check(args)
    pages = page_directory_of(args.cache)
    front = nginx_in_front(args.cache, args.workers)
    location = database_location(args.db)
    database = str(Path(location).resolve()) if is_sqlite(location) else location
    check_cache_usable(args.cache)
    new_database = prepare_database(database, args.db)
    if new_database and args.demo_data:
        videos = put_demo_data(database)
        print(f"the new database has {videos} demo videos", file=sys.stderr, flush=True)
    # Marked as ours (a kill -9 leaves it to the next command's sweep); 0711: nginx's workers,
    # unprivileged when we are root, reach their configuration through it.
    with work_directory("layerbench-app-") as workdir:
        app_environment = {
            DATABASE_URL_VARIABLE: database,
            CACHE_URL_VARIABLE: args.cache,
            SECRET_VARIABLE: secrets.token_hex(32),
        }
        application: ManagedServer
        if front:
            application = GunicornServer(
                workdir / "gunicorn",
                free_port(),
                create_seeded_database(workdir),
                GunicornSettings(
                    workers=args.workers, worker_class="gthread", threads=args.threads
                ),
                host=LOOPBACK,
                app_environment=app_environment,
                # nginx, which faces the clients, keeps the access log.
                access_log=False,
            )
        else:
            application = WaitressServer(
                workdir / "waitress",
                args.port,
                create_seeded_database(workdir),
                WaitressSettings(
                    threads=args.threads,
                    connection_limit=WAITRESS_CONNECTIONS,
                    # A larger body is refused as it comes, not read (the site would refuse it).
                    max_request_body_size=MAX_BODY_BYTES,
                ),
                host=args.host,
                app_environment=app_environment,
                access_log=not args.quiet,
            )
        servers: list[ManagedServer] = [application]
        if front:
            upstream = f"{LOOPBACK}:{application.port}"
            servers.append(
                NginxFront(
                    workdir / "nginx",
                    args.port,
                    upstream,
                    pages,
                    host=args.host,
                    access_log=not args.quiet,
                )
            )
        logs = [LogFollower(server.log_path, sys.stderr) for server in servers]
        try:
            with ExitStack() as running:
                for server in servers:
                    running.enter_context(server)
                base_url = servers[-1].base_url
                print(f"serving {base_url}/ (database {args.db}, cache {args.cache})", flush=True)
                print("Ctrl-C stops it", file=sys.stderr, flush=True)
                while True:
                    for log in logs:
                        log.pump()
                    for server in servers:
                        server.check_alive()
                    time.sleep(WATCH_INTERVAL_S)
        finally:
            for log in logs:
                log.finish()


def prepare_database(database: str, named: str) -> bool:
    """The database brought to the newest schema; whether it was new (had no schema)."""
    try:
        new = schema_revision(database) is None
        prepare_site_database(database)
    except Exception as error:  # a driver's own error: unreachable, refused, not a database
        raise ConfigError(f"cannot use the database {named}: {error}") from None
    return new


def nginx_in_front(cache: str, workers: int) -> bool:
    """Whether nginx goes in front (it does where installed). Without it waitress serves, and
    one line says so; a page-cache directory (nginx serves its files) or more than one process
    (waitress has one) is refused then."""
    try:
        find_program("nginx", NGINX_PACKAGE)
    except MissingBinaryError as error:
        if page_directory_of(cache) is not None:
            raise ConfigError(
                f"--cache {cache}: nginx serves the page cache's files, and {error}"
            ) from None
        if workers > 1:
            raise ConfigError(
                f"--workers {workers}: {error}; without it waitress serves, in one process: "
                "install nginx, or use --workers 1 (with --threads)"
            ) from None
        print(
            f"layerbench: {error}; without it in front, waitress answers clients itself, in one "
            "process (slow or idle clients hold none of its threads)",
            file=sys.stderr,
            flush=True,
        )
        return False
    return True
