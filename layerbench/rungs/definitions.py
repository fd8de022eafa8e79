"""The ladder's rungs, in one ordered table: what each asks for, the answer it must give, the
services it reads and the ladders it is on.

The expected answers are written here from the rung data (:mod:`layerbench.rungs.rung_data`),
not asked of the application: a rung that answers anything else is an error, never a fast
result. The default ladder runs on the embedded defaults (SQLite, the in-process cache) and
needs no service; the full ladder on real services, in the seed's order. Every rung not served
by nginx is answered by the application under test, which names its handler for each by the
rung's name (:mod:`layerbench.rungs.completeness`).
"""

import json
from dataclasses import dataclass, replace
from enum import Enum

from layerbench.rungs.rung_data import (
    HELLO_VALUE,
    PAGE_VIDEO_PRETTYID,
    PAGE_VIDEO_TITLE,
    WRITE_VIDEO_PRETTYID,
)


class Stack(Enum):
    """Which server answers a rung."""

    STATIC = "nginx"
    PYTHON = "application"


@dataclass(frozen=True)
class Rung:
    name: str
    stack: Stack
    path: str
    layer: str
    # The whole body, byte for byte; or, for a body that differs per request (a form's token,
    # a new comment's id), what it must contain.
    expected_body: bytes | None = None
    expected_text: bytes | None = None
    expected_status: int = 200
    method: str = "GET"
    body: bytes | None = None
    content_type: str | None = None
    # The services (by kind) the rung reads.
    needs: tuple[str, ...] = ()
    # A mixed rung: other rungs' requests, each with its weight, sent interleaved (its own
    # path and expected answer are unused; each part is verified as itself).
    mix: tuple[tuple[int, "Rung"], ...] = ()
    # The rungs this one adds a layer to, nearest first, down to the top of its ladder: "vs
    # above" compares it with the first of them measured (set by ``ladder_of``).
    chain: tuple[str, ...] = ()

    def accepts(self, status: int, body: bytes) -> bool:
        if status != self.expected_status:
            return False
        if self.expected_body is not None:
            return body == self.expected_body
        return self.expected_text is None or self.expected_text in body


class Ladders(Enum):
    """The ladders a rung is on."""

    BOTH = "both"
    DEFAULT = "default"
    FULL = "full"
    # On neither by default: run when asked for by name (--rungs, a matrix's --rung), on either.
    ASKED = "asked"


@dataclass(frozen=True)
class Definition:
    """One row of the table: the rung, its ladders, and what changes on the full ladder."""

    rung: Rung
    ladders: Ladders
    # On the full ladder: the services (by kind) it reads there, and its layer's name if it
    # differs. The default ladder's embedded SQLite and in-process cache need no service.
    full_needs: tuple[str, ...] = ()
    full_layer: str | None = None
    # On the full ladder: the rung it adds one layer to, when not the one before it (the
    # seed's chains: memcached and _mysql each against the string; MySQLdb against _mysql).
    full_above: str | None = None

    def is_on(self, full: bool) -> bool:
        if self.ladders is Ladders.ASKED:
            return False
        return self.ladders is Ladders.BOTH or (self.ladders is Ladders.FULL) == full

    def rung_on(self, full: bool) -> Rung:
        if not full:
            return self.rung
        return replace(self.rung, layer=self.full_layer or self.rung.layer, needs=self.full_needs)


STATIC_FILE = "hello.txt"
STATIC_BODY = b"Hello World!\n"
HELLO = HELLO_VALUE.encode()
PAGE_TITLE = f'<h1 id="title">{PAGE_VIDEO_TITLE}</h1>'.encode()
WRITE_BODY = json.dumps({"name": "layerbench", "body": HELLO_VALUE}).encode()
# The site on PostgreSQL, its page cache in memcached (shared by every worker).
SITE_SERVICES = ("postgres", "memcached")


def _python(name: str, layer: str) -> Rung:
    """A rung answering the row's value as plain text at /ladder/NAME."""
    return Rung(name, Stack.PYTHON, f"/ladder/{name}", layer, HELLO)


STATIC = Rung(
    "static",
    Stack.STATIC,
    "/" + STATIC_FILE,
    "a static file (nginx's; Apache's own under an Apache server)",
    STATIC_BODY,
)
STRING = _python("string", "a Python string from a global")
CACHE = _python("cache", "a lookup in the in-process cache")
DB_RAW = _python("db-raw", "the row through sqlite3 (DB-API)")
MEMCACHED = _python("memcached", "a get from memcached (pymemcache)")
REDIS = _python("redis", "a GET from Redis (redis-py)")
MARIADB_RAW = _python("mariadb-raw", "the row from MariaDB, raw C driver (MySQLdb._mysql)")
MARIADB = _python("mariadb", "the row from MariaDB through DB-API (MySQLdb)")
ORM_MARIADB = _python("orm-mariadb", "the row through the SQLAlchemy ORM on MariaDB (MySQLdb)")
POSTGRES = _python("postgres", "the row from PostgreSQL (psycopg 3)")
COUCHDB = _python("couchdb", "the row as a CouchDB document over HTTP (kept alive)")
ORM = _python("orm", "the row through the SQLAlchemy ORM")
TEMPLATE = Rung(
    "template",
    Stack.PYTHON,
    "/ladder/template",
    "the ORM row rendered by a Jinja2 template",
    b"<!doctype html>\n<title>layerbench</title>\n<p>" + HELLO + b"</p>",
)
PAGE = Rung(
    "page",
    Stack.PYTHON,
    "/ladder/page",
    "the site's video page, built on every request",
    expected_text=PAGE_TITLE,
)
CACHED_PAGE = Rung(
    "cached-page",
    Stack.PYTHON,
    f"/v/{PAGE_VIDEO_PRETTYID}",
    "the same page from the page cache",
    expected_text=PAGE_TITLE,
)
UPSTREAM = Rung(
    "upstream",
    Stack.PYTHON,
    "/ladder/upstream",
    "a wait on an HTTP service that answers after a known delay (upstream.ms)",
    HELLO,
    needs=("upstream",),
)
WRITE = Rung(
    "write",
    Stack.PYTHON,
    f"/videos/{WRITE_VIDEO_PRETTYID}/comments",
    "a comment posted: a transaction, the audit trigger, the page sweep",
    expected_text=b'"body":"' + HELLO + b'"',
    expected_status=201,
    method="POST",
    body=WRITE_BODY,
    content_type="application/json",
)

# Each ladder runs these in this order, those that are on it.
DEFINITIONS: tuple[Definition, ...] = (
    Definition(STATIC, Ladders.BOTH),
    Definition(STRING, Ladders.BOTH),
    Definition(CACHE, Ladders.DEFAULT),
    Definition(DB_RAW, Ladders.DEFAULT),
    Definition(MEMCACHED, Ladders.FULL, ("memcached",)),
    Definition(REDIS, Ladders.FULL, ("redis",), full_above=STRING.name),
    # The seed's CouchDB (seed 000): a document by id over HTTP, against the string.
    Definition(COUCHDB, Ladders.FULL, ("couchdb",), full_above=STRING.name),
    # The seed's chain on one database: _mysql -> MySQLdb -> SQLAlchemy ORM, on MariaDB.
    Definition(MARIADB_RAW, Ladders.FULL, ("mariadb",), full_above=STRING.name),
    Definition(MARIADB, Ladders.FULL, ("mariadb",)),
    Definition(ORM_MARIADB, Ladders.FULL, ("mariadb",)),
    # PostgreSQL's beside it: psycopg -> ORM -> template.
    Definition(POSTGRES, Ladders.FULL, ("postgres",), full_above=STRING.name),
    Definition(ORM, Ladders.BOTH, ("postgres",), f"{ORM.layer} (PostgreSQL)"),
    Definition(TEMPLATE, Ladders.BOTH, ("postgres",)),
    Definition(PAGE, Ladders.BOTH, SITE_SERVICES),
    Definition(CACHED_PAGE, Ladders.BOTH, SITE_SERVICES),
    Definition(WRITE, Ladders.BOTH, SITE_SERVICES),
    Definition(UPSTREAM, Ladders.ASKED, ("upstream",)),
)


def ladder_of(full: bool) -> tuple[Rung, ...]:
    """The ladder's rungs in order, each with its chain: the rung it adds a layer to (the one
    before it, or its ``full_above``), and that rung's chain."""
    rungs: list[Rung] = []
    chains: dict[str, tuple[str, ...]] = {}
    for row in DEFINITIONS:
        if not row.is_on(full):
            continue
        above = (row.full_above if full else None) or (rungs[-1].name if rungs else None)
        chain = (above, *chains[above]) if above else ()
        chains[row.rung.name] = chain
        rungs.append(replace(row.rung_on(full), chain=chain))
    return tuple(rungs)


def asked_rungs(full: bool) -> tuple[Rung, ...]:
    """The rungs on neither ladder by default, as they run on that one when asked for."""
    return tuple(row.rung_on(full) for row in DEFINITIONS if row.ladders is Ladders.ASKED)


def selectable_of(full: bool) -> tuple[Rung, ...]:
    """Every rung a run on that ladder may ask for by name: its own, then the asked ones."""
    return (*ladder_of(full), *asked_rungs(full))


LADDER = ladder_of(full=False)
FULL_LADDER = ladder_of(full=True)
RUNG_NAMES = tuple(rung.name for rung in LADDER)
FULL_RUNG_NAMES = tuple(rung.name for rung in FULL_LADDER)
# The services a run may start, in the order the full ladder first reads them (then the asked
# rungs': the upstream rung's delaying server).
FULL_SERVICES = tuple(
    dict.fromkeys(kind for rung in selectable_of(full=True) for kind in rung.needs)
)
# The rungs an application answers: all but nginx's.
APPLICATION_RUNGS = tuple(row.rung for row in DEFINITIONS if row.rung.stack is Stack.PYTHON)
