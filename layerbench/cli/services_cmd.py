"""``layerbench services``: throwaway backing services, and checks of existing ones.

layerbench services up NAME [NAME ...] [--set NAME.KEY=VALUE ...]
                                         start them, print ``NAME URL`` lines (a cluster's
                                         one per node), stop on Ctrl-C
layerbench services check URL            exit 0 when the server at URL answers, 1 when not
"""

import argparse
import contextlib
import sys
import time
from typing import Any

from layerbench.errors import ConfigError
from layerbench.lab.service_settings import service_arguments, service_sections
from layerbench.servers.server_settings import add_assignments, check_sections
from layerbench.services.external import check_external
from layerbench.services.registry import SERVICES, service_class
from layerbench.services.service import ManagedService

WATCH_INTERVAL_S = 0.5


def add_parser(commands: Any) -> None:
    parser = commands.add_parser(
        "services",
        help="start throwaway backing services, or check existing ones",
        description="Private PostgreSQL, MariaDB, a 3-node MariaDB Galera cluster, memcached, "
        "Redis and CouchDB (pouchdb-server) instances in temporary directories on loopback; "
        "stopped and removed on exit.",
    )
    actions = parser.add_subparsers(dest="services_action", required=True, metavar="ACTION")
    up = actions.add_parser("up", help="start services and keep them up until Ctrl-C")
    up.add_argument("names", nargs="+", metavar="NAME", help=", ".join(SERVICES))
    up.add_argument(
        "--set",
        dest="settings",
        action="append",
        default=[],
        metavar="NAME.KEY=VALUE",
        help="a service's setting: couchdb.server=pouchdb|apache, mariadb.profile=default|seed003, "
        "galera.profile=…, galera.wsrep_sync_wait=0-15, galera.wsrep_slave_threads=N",
    )
    up.set_defaults(handler=cmd_up)
    check = actions.add_parser("check", help="check that the server at a URL answers")
    check.add_argument(
        "url", help="postgresql://…, mysql://…, memcached://…, redis://…, http://… (CouchDB)"
    )
    check.set_defaults(handler=cmd_check)


def cmd_up(args: argparse.Namespace) -> int:
    classes = [service_class(name) for name in args.names]
    if len(set(args.names)) != len(args.names):
        raise ConfigError("each service can be named once")
    book = add_assignments({}, args.settings)
    # Only the named services that have settings read a section (a section of another is a typo).
    check_sections(book, set(args.names) & set(service_sections()))
    # Every service's settings are checked before any starts.
    unstarted = [cls(**service_arguments(book, cls.name)) for cls in classes]
    with contextlib.ExitStack() as stack:
        services: list[ManagedService] = []
        for unstarted_service in unstarted:
            service = stack.enter_context(unstarted_service)
            services.append(service)
            # Each node's URL, then the service's own where it is none of them (a pool's).
            for url in dict.fromkeys((*service.urls, service.url)):
                print(f"{service.name} {url}", flush=True)
        print("up; Ctrl-C stops them and removes their data", file=sys.stderr, flush=True)
        while True:
            for service in services:
                service.check_alive()
            time.sleep(WATCH_INTERVAL_S)


def cmd_check(args: argparse.Namespace) -> int:
    parsed = check_external(args.url)
    print(f"{parsed.kind} at {parsed.host}:{parsed.port} answers")
    return 0
