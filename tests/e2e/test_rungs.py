"""The rungs as one concept: one ordered table gives both ladders; the bare application answers
every rung of the table by name, and no other; the rung data, seeded, is read back through the
bare application's handlers on the real services, and its absence is one error."""

from collections.abc import Callable
from itertools import pairwise
from pathlib import Path

import pytest
from jinja2 import Environment, PackageLoader

from layerbench.rungs.completeness import IncompleteApplicationError, check_answers_every_rung
from layerbench.rungs.definitions import (
    APPLICATION_RUNGS,
    DEFINITIONS,
    FULL_RUNG_NAMES,
    FULL_SERVICES,
    RUNG_NAMES,
    ladder_of,
)
from layerbench.rungs.rung_data import HELLO_CACHE_KEY, HELLO_DOCUMENT_PATH, MissingRungDataError
from layerbench.rungs.seeding import SEEDERS
from layerbench.rungs.service_clients import (
    couchdb_client,
    mariadb_connection,
    memcached_client,
    postgres_connection,
)
from layerbench.services.redis import redis_client
from layerbench.services.registry import SERVICES
from layerbench_sites.app.app_config import ServiceUrls
from layerbench_sites.app.cache import LocalCache
from layerbench_sites.app.database import Database
from layerbench_sites.app.per_thread import PerThread
from layerbench_sites.app.process_engine import ProcessEngine
from layerbench_sites.app.rung_handlers import HELLO_BYTES, LadderRungs
from layerbench_sites.app.rung_table import SITE_RUNGS, rung_handlers, rung_routes
from layerbench_sites.app.service_rung_handlers import ServiceRungs
from tests.conftest import start_service

EVERY_SERVICE = ServiceUrls(
    memcached="memcached://127.0.0.1:1",
    redis="redis://127.0.0.1:1/0",
    mariadb="mysql://root@127.0.0.1:1/layerbench",
    postgres="postgresql://layerbench@127.0.0.1:1/layerbench",
    couchdb="http://127.0.0.1:1",
    upstream="http://127.0.0.1:1/delay/20",
)


def templates() -> Environment:
    return Environment(loader=PackageLoader("layerbench_sites.app", "templates"))


def _in_order(names: tuple[str, ...], expected: list[str]) -> bool:
    """``expected`` is in ``names``, in its order (a rung added among them is allowed)."""
    remaining = iter(names)
    return all(name in remaining for name in expected)


def test_the_ladders_are_one_table_in_the_seeds_order() -> None:
    assert _in_order(RUNG_NAMES, [
        "static", "string", "cache", "db-raw", "orm", "template", "page", "cached-page", "write"
    ])  # fmt: skip
    assert _in_order(FULL_RUNG_NAMES, [
        "static", "string", "memcached", "redis", "couchdb", "mariadb-raw", "mariadb", "postgres",
        "orm", "template", "page", "cached-page", "write",
    ])  # fmt: skip
    assert not _in_order(RUNG_NAMES, ["string", "static"])
    assert "cache" not in FULL_RUNG_NAMES and "memcached" not in RUNG_NAMES
    assert FULL_SERVICES == ("memcached", "redis", "couchdb", "mariadb", "postgres", "upstream")
    names = [row.rung.name for row in DEFINITIONS]
    paths = [row.rung.path for row in DEFINITIONS]
    assert len(set(names)) == len(names) and len(set(paths)) == len(paths)


def test_each_vs_above_changes_one_layer_the_full_ladder_in_the_seeds_chains() -> None:
    full = {rung.name: rung.chain for rung in ladder_of(full=True)}
    # Seed 000: _mysql -> MySQLdb -> SQLAlchemy on one database, each from the string.
    assert full["orm-mariadb"] == ("mariadb", "mariadb-raw", "string", "static")
    assert full["memcached"] == full["redis"] == ("string", "static")
    # PostgreSQL's beside it.
    assert full["template"] == ("orm", "postgres", "string", "static")
    assert full["static"] == ()
    default = [(rung.name, rung.chain) for rung in ladder_of(full=False)]
    for (above, chain), (_, below) in pairwise(default):
        assert below == (above, *chain)


def test_the_bare_application_answers_every_rung_and_no_other(seeded_db: Path) -> None:
    # Every service configured (nothing connects until a rung is asked for).
    handlers = rung_handlers(Database(seeded_db), LocalCache(), templates(), EVERY_SERVICE)
    check_answers_every_rung("the bare WSGI application", [*handlers, *SITE_RUNGS])
    assert not set(handlers) & set(SITE_RUNGS)
    routes = rung_routes(handlers)
    assert set(routes) == {rung.path for rung in APPLICATION_RUNGS if rung.name in handlers}


ANSWERED = [rung.name for rung in APPLICATION_RUNGS]


@pytest.mark.parametrize(
    ("answered", "message"),
    [
        (ANSWERED[:-2], rf"^an app: no handler for {ANSWERED[-2]}, {ANSWERED[-1]}$"),
        (
            [*ANSWERED, "static", "no-such-rung"],
            r"^an app: handlers for no rung: no-such-rung, static$",
        ),
        (
            [*ANSWERED[1:], "no-such-rung"],
            rf"^an app: no handler for {ANSWERED[0]}; handlers for no rung: no-such-rung$",
        ),
    ],
)
def test_an_application_missing_a_rung_or_with_a_stray_handler_is_refused(
    answered: list[str], message: str
) -> None:
    with pytest.raises(IncompleteApplicationError, match=message):
        check_answers_every_rung("an app", answered)


def test_a_missing_row_is_missing_rung_data(seeded_db: Path) -> None:
    rungs = LadderRungs(Database(seeded_db), LocalCache(), templates())
    assert rungs.db_raw()[2] == HELLO_BYTES
    Database(seeded_db).connection().execute("DELETE FROM hello").connection.commit()
    for handler in (rungs.db_raw, rungs.orm, rungs.template, rungs.cache):
        with pytest.raises(MissingRungDataError, match="missing from row 1 of table hello"):
            handler()


def _forget_mariadb(url: str) -> None:
    connection = mariadb_connection(url)
    try:
        with connection.cursor() as cursor:
            cursor.execute("DELETE FROM hello")
    finally:
        connection.close()  # type: ignore[no-untyped-call]


def _forget_postgres(url: str) -> None:
    with postgres_connection(url) as connection:
        connection.execute("DELETE FROM hello")


def _forget_memcached(url: str) -> None:
    client = memcached_client(url)
    try:
        client.delete(HELLO_CACHE_KEY, noreply=False)
    finally:
        client.close()


def _forget_redis(url: str) -> None:
    with redis_client(url) as client:
        client.delete(HELLO_CACHE_KEY)


def _forget_couchdb(url: str) -> None:
    client = couchdb_client(url)
    try:
        status, document = client.request("GET", HELLO_DOCUMENT_PATH)
        assert status == 200
        status, _ = client.request("DELETE", f"{HELLO_DOCUMENT_PATH}?rev={document['_rev']}")
        assert status == 200
    finally:
        client.close()


FORGET: dict[str, Callable[[str], None]] = {
    "couchdb": _forget_couchdb,
    "mariadb": _forget_mariadb,
    "postgres": _forget_postgres,
    "memcached": _forget_memcached,
    "redis": _forget_redis,
}


# The backing stores (the upstream rung's delaying server holds no data: test_upstream.py).
@pytest.mark.parametrize("kind", [kind for kind in FULL_SERVICES if kind in SERVICES])
def test_each_service_seeded_answers_its_rungs_and_without_its_data_they_fail(kind: str) -> None:
    service = start_service(kind)
    try:
        SEEDERS[kind](service.url)
        rungs = ServiceRungs(ServiceUrls(**{kind: service.url}))
        try:
            handlers = rungs.handlers()
            assert handlers, kind
            for name, handler in handlers.items():
                assert handler() == ("200 OK", [("Content-Type", "text/plain; charset=utf-8")],
                                     HELLO_BYTES), name  # fmt: skip
            FORGET[kind](service.url)
            for handler in handlers.values():
                with pytest.raises(MissingRungDataError, match="the rung data is missing from"):
                    handler()
        finally:
            _close_connections(rungs)
    finally:
        service.stop()


def _close_connections(rungs: ServiceRungs) -> None:
    """The connections the handlers opened on this thread."""
    for attribute in vars(rungs).values():
        if isinstance(attribute, PerThread):
            attribute.get().close()
        if isinstance(attribute, ProcessEngine):
            attribute.engine().dispose()
