"""The ladder's rungs: what each one asks for and the answer it must give.

The expected answers are written here from the rung data (:mod:`layerbench.rungs.rung_data`), not
asked of the application: a rung that answers anything else is an error, never a fast result.
The default ladder runs on the embedded defaults (SQLite, the in-process cache); the full
ladder on real services, in the seed's order.
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

    def accepts(self, status: int, body: bytes) -> bool:
        if status != self.expected_status:
            return False
        if self.expected_body is not None:
            return body == self.expected_body
        return self.expected_text is None or self.expected_text in body


STATIC_FILE = "hello.txt"
STATIC_BODY = b"Hello World!\n"
HELLO = HELLO_VALUE.encode()
PAGE_TITLE = f'<h1 id="title">{PAGE_VIDEO_TITLE}</h1>'.encode()
WRITE_BODY = json.dumps({"name": "layerbench", "body": HELLO_VALUE}).encode()


def _python(name: str, layer: str, *needs: str) -> Rung:
    """A rung answering the row's value as plain text at /ladder/NAME."""
    return Rung(name, Stack.PYTHON, f"/ladder/{name}", layer, HELLO, needs=needs)


STATIC = Rung("static", Stack.STATIC, "/" + STATIC_FILE, "a static file from nginx", STATIC_BODY)
STRING = _python("string", "a Python string from a global")
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

LADDER: tuple[Rung, ...] = (
    STATIC,
    STRING,
    _python("cache", "a lookup in the in-process cache"),
    _python("db-raw", "the row through sqlite3 (DB-API)"),
    ORM,
    TEMPLATE,
    PAGE,
    CACHED_PAGE,
    WRITE,
)

FULL_LADDER: tuple[Rung, ...] = (
    STATIC,
    STRING,
    _python("memcached", "a get from memcached (pymemcache)", "memcached"),
    _python("redis", "a GET from Redis (redis-py)", "redis"),
    _python("mariadb-raw", "the row from MariaDB, raw C driver (MySQLdb._mysql)", "mariadb"),
    _python("mariadb", "the row from MariaDB through DB-API (MySQLdb)", "mariadb"),
    _python("postgres", "the row from PostgreSQL (psycopg 3)", "postgres"),
    _python("orm", "the row through the SQLAlchemy ORM (PostgreSQL)", "postgres"),
    replace(TEMPLATE, needs=("postgres",)),
    # The site on PostgreSQL, its page cache in memcached (shared by every worker).
    replace(PAGE, needs=("postgres", "memcached")),
    replace(CACHED_PAGE, needs=("postgres", "memcached")),
    replace(WRITE, needs=("postgres", "memcached")),
)

RUNG_NAMES = tuple(rung.name for rung in LADDER)
FULL_RUNG_NAMES = tuple(rung.name for rung in FULL_LADDER)
FULL_SERVICES = ("memcached", "redis", "mariadb", "postgres")


def ladder_of(full: bool) -> tuple[Rung, ...]:
    return FULL_LADDER if full else LADDER
