"""The ladder's rungs: what each one asks for and the exact answer it must give.

The expected bodies are written here from the rung data, not asked of the application: a rung
that answers anything else is an error, never a fast result.
"""

from dataclasses import dataclass
from enum import Enum

from layerbench.app.data import HELLO_VALUE


class Stack(Enum):
    """Which server answers a rung."""

    STATIC = "nginx"
    PYTHON = "gunicorn"


@dataclass(frozen=True)
class Rung:
    name: str
    stack: Stack
    path: str
    expected_body: bytes
    layer: str

    expected_status: int = 200


STATIC_FILE = "hello.txt"
STATIC_BODY = b"Hello World!\n"
HELLO = HELLO_VALUE.encode()

LADDER: tuple[Rung, ...] = (
    Rung("static", Stack.STATIC, "/" + STATIC_FILE, STATIC_BODY, "a static file from nginx"),
    Rung("string", Stack.PYTHON, "/ladder/string", HELLO, "a Python string from a global"),
    Rung("cache", Stack.PYTHON, "/ladder/cache", HELLO, "a lookup in the in-process cache"),
    Rung("db-raw", Stack.PYTHON, "/ladder/db-raw", HELLO, "one row through sqlite3 (DB-API)"),
    Rung("orm", Stack.PYTHON, "/ladder/orm", HELLO, "the same row through the SQLAlchemy ORM"),
    Rung(
        "template",
        Stack.PYTHON,
        "/ladder/template",
        b"<!doctype html>\n<title>layerbench</title>\n<p>" + HELLO + b"</p>",
        "the ORM row rendered by a Jinja2 template",
    ),
)

RUNG_NAMES = tuple(rung.name for rung in LADDER)
