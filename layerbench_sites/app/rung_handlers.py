"""The bare application's embedded rungs, one per layer; each adds exactly one layer to the one
above it.

string    a Python string from a global                      (no I/O)
cache     a lookup in the cache backend                       (+ cache)
db-raw    one row by primary key through the DB-API driver    (+ database)
orm       the same row through the SQLAlchemy 2 ORM           (+ ORM)
template  the ORM row rendered by a Jinja2 template           (+ template)
"""

from collections.abc import Callable

from jinja2 import Environment

from layerbench.rungs.definitions import CACHE, DB_RAW, ORM, STRING, TEMPLATE
from layerbench.rungs.rung_data import (
    HELLO_CACHE_KEY,
    HELLO_ID,
    HELLO_SELECT,
    HELLO_VALUE,
    MissingRungDataError,
)
from layerbench_sites.app.cache import CacheBackend
from layerbench_sites.app.database import Database
from layerbench_sites.app.models import Hello

Response = tuple[str, list[tuple[str, str]], bytes]
Handler = Callable[[], Response]

HELLO_BYTES = HELLO_VALUE.encode()
TEXT = [("Content-Type", "text/plain; charset=utf-8")]
HTML = [("Content-Type", "text/html; charset=utf-8")]
HELLO_ROW = f"row {HELLO_ID} of table hello"


class LadderRungs:
    def __init__(self, database: Database, cache: CacheBackend, templates: Environment) -> None:
        self._database = database
        self._cache = cache
        self._template = templates.get_template("hello.html")

    def handlers(self) -> dict[str, Handler]:
        return {
            STRING.name: self.string,
            CACHE.name: self.cache,
            DB_RAW.name: self.db_raw,
            ORM.name: self.orm,
            TEMPLATE.name: self.template,
        }

    def string(self) -> Response:
        return "200 OK", TEXT, HELLO_BYTES

    def cache(self) -> Response:
        value = self._cache.get(HELLO_CACHE_KEY)
        if value is None:
            value = self._read_raw()
            self._cache.set(HELLO_CACHE_KEY, value)
        return "200 OK", TEXT, value

    def db_raw(self) -> Response:
        return "200 OK", TEXT, self._read_raw()

    def orm(self) -> Response:
        with self._database.session() as session:
            return "200 OK", TEXT, self._read_orm(session.get(Hello, HELLO_ID)).encode()

    def template(self) -> Response:
        with self._database.session() as session:
            hello = session.get(Hello, HELLO_ID)
            self._read_orm(hello)
            return "200 OK", HTML, self._template.render(hello=hello).encode()

    def _read_raw(self) -> bytes:
        row = self._database.connection().execute(HELLO_SELECT, (HELLO_ID,)).fetchone()
        if row is None:
            raise MissingRungDataError(HELLO_ROW)
        value: str = row[0]
        return value.encode()

    @staticmethod
    def _read_orm(hello: Hello | None) -> str:
        if hello is None:
            raise MissingRungDataError(HELLO_ROW)
        return hello.value
