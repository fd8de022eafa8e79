"""What the audit triggers cost: writes per second with and without them, in one run, on each
database.

    .venv/bin/python bench/trigger_cost.py [--databases sqlite,postgres,mariadb]
        [--writes 5000] [--rounds 3] [--durability full|relaxed]

Each write is one transaction updating one video through the data layer. Both schemas have the
registry triggers; one also has the audit triggers. SQLite is a file in a temporary directory
(WAL); PostgreSQL and MariaDB are throwaway servers started for the run. Rounds alternate
(unaudited, audited, unaudited, …); prints each, the medians, and audited / unaudited (the
anchor) per database.

--durability full syncs every commit (each database's default, and what a service runs with):
the fsync then dominates. relaxed does not wait for the disk (SQLite synchronous=NORMAL,
PostgreSQL synchronous_commit=off, MariaDB innodb_flush_log_at_trx_commit=2), which shows what
the triggers cost in CPU.
"""

import argparse
import secrets
import statistics
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path

import psycopg

from layerbench.services.mariadb import MariadbService, connect_mariadb
from layerbench.services.postgres import PostgresService
from layerbench_sites.datalayer import mariadb_repository, postgres_repository, sqlite_repository
from layerbench_sites.datalayer.repository import Repository

# A database's fresh schema for one measurement: a repository on it, and a clean-up.
Fresh = Callable[[bool, bool], tuple[Repository, Callable[[], None]]]


def writes_per_s(repository: Repository, writes: int) -> float:
    video = repository.create("videos", {"title": "t", "url": "u"}, actor="bench")
    started = time.perf_counter()
    for n in range(writes):
        repository.update("videos", video, {"title": f"t{n}"}, actor="bench")
    return writes / (time.perf_counter() - started)


def sqlite_fresh(directory: Path) -> Fresh:
    def fresh(audit: bool, relaxed: bool) -> tuple[Repository, Callable[[], None]]:
        path = directory / f"{secrets.token_hex(4)}.sqlite3"
        sqlite_repository.create_schema(path, audit=audit)
        connection = sqlite_repository.connect(path)
        connection.execute(f"PRAGMA synchronous = {'NORMAL' if relaxed else 'FULL'}")
        return sqlite_repository.SqliteRepository(connection), connection.close

    return fresh


def postgres_fresh(server_url: str) -> Fresh:
    base = server_url.rpartition("/")[0]

    def fresh(audit: bool, relaxed: bool) -> tuple[Repository, Callable[[], None]]:
        name = f"b_{secrets.token_hex(4)}"
        with psycopg.connect(server_url, autocommit=True) as admin:
            admin.execute(f'CREATE DATABASE "{name}"')
        postgres_repository.create_schema(f"{base}/{name}", audit=audit)
        connection = postgres_repository.connect(f"{base}/{name}")
        connection.execute(f"SET synchronous_commit = {'off' if relaxed else 'on'}")

        def close() -> None:
            connection.close()
            with psycopg.connect(server_url, autocommit=True) as admin:
                admin.execute(f'DROP DATABASE "{name}"')

        return postgres_repository.PostgresRepository(connection), close

    return fresh


def mariadb_fresh(server_url: str) -> Fresh:
    base = server_url.rpartition("/")[0]

    def admin(statement: str) -> None:
        connection = connect_mariadb(server_url)
        with connection, connection.cursor() as cursor:
            cursor.execute(statement)

    def fresh(audit: bool, relaxed: bool) -> tuple[Repository, Callable[[], None]]:
        name = f"b_{secrets.token_hex(4)}"
        admin(f"CREATE DATABASE `{name}`")
        admin(f"SET GLOBAL innodb_flush_log_at_trx_commit = {2 if relaxed else 1}")
        mariadb_repository.create_schema(f"{base}/{name}", audit=audit)
        connection = mariadb_repository.connect(f"{base}/{name}")

        def close() -> None:
            connection.close()
            admin(f"DROP DATABASE `{name}`")

        return mariadb_repository.MariadbRepository(connection), close

    return fresh


@contextmanager
def targets(names: list[str]) -> Iterator[dict[str, Fresh]]:
    with ExitStack() as stack:
        made: dict[str, Fresh] = {}
        for name in names:
            if name == "sqlite":
                directory = stack.enter_context(tempfile.TemporaryDirectory(prefix="lb-bench-"))
                made[name] = sqlite_fresh(Path(directory))
            elif name == "postgres":
                made[name] = postgres_fresh(stack.enter_context(PostgresService()).url)
            elif name == "mariadb":
                made[name] = mariadb_fresh(stack.enter_context(MariadbService()).url)
            else:
                raise SystemExit(f"bench: no database named {name!r}")
        yield made


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--databases", default="sqlite,postgres,mariadb")
    parser.add_argument("--writes", type=int, default=5_000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--durability", choices=["full", "relaxed"], default="full")
    args = parser.parse_args()
    relaxed = args.durability == "relaxed"
    names = args.databases.split(",")
    rates: dict[tuple[str, bool], list[float]] = {}
    with targets(names) as fresh_by_name:
        for _ in range(args.rounds):
            for name, fresh in fresh_by_name.items():
                for audit in (False, True):
                    repository, close = fresh(audit, relaxed)
                    try:
                        rate = writes_per_s(repository, args.writes)
                    finally:
                        close()
                    rates.setdefault((name, audit), []).append(rate)
                    label = "audited  " if audit else "unaudited"
                    print(f"  {name:<8} {label} {rate:>9,.0f} writes/s", flush=True)
    print(f"durability={args.durability}, {args.writes} writes per run, {args.rounds} rounds")
    for name in names:
        unaudited = statistics.median(rates[(name, False)])
        audited = statistics.median(rates[(name, True)])
        print(
            f"median {name:<8} unaudited {unaudited:>9,.0f} writes/s, audited "
            f"{audited:>9,.0f} writes/s, audited / unaudited x{audited / unaudited:.3f}"
        )


if __name__ == "__main__":
    main()
