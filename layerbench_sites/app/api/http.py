"""What every resource shares: reading a JSON body within limits, answering JSON, the acting
user, errors as JSON, and serving GETs through the page cache (with ETags and 304s)."""

import json
import re
import threading
from collections.abc import Callable
from typing import Any
from urllib.parse import urlencode

import falcon

from layerbench.site_contract import BODY_TOO_LARGE_TITLE, MAX_BODY_BYTES, WRITE_ATTEMPTS_HEADER
from layerbench_sites.app.api.json_text import JsonTextError, parse_json
from layerbench_sites.app.api.page_cache import CachedPage, PageCache, etag_of
from layerbench_sites.app.api.page_sweeper import PageSweeper
from layerbench_sites.app.api.schemas import Schema, problems
from layerbench_sites.app.videos import Catalog
from layerbench_sites.datalayer.open_repository import open_repository

JSON = "application/json"
MAX_LIMIT = 100
ACTOR_HEADER = "X-Layerbench-User"
# On the answer to a request that wrote: how many times its write transactions were begun (more
# than one a write when the database gave one up for another, e.g. a Galera certification
# conflict, and the repository ran it again).

ACTOR_PATTERN = re.compile(r"[A-Za-z0-9._@+-]{1,64}")
DIGITS = re.compile(r"[0-9]{1,18}")


class ApiError(falcon.HTTPError):
    """An error answered as ``{"title": ..., "errors": [...]}``."""

    def __init__(self, status: str, title: str, errors: list[str] | None = None) -> None:
        super().__init__(status, title=title)
        self.errors = errors or []

    def to_dict(self, obj_type: Callable[[], Any] = dict) -> Any:
        document = obj_type()
        document["title"] = self.title
        document["errors"] = self.errors
        return document


def invalid(errors: list[str]) -> ApiError:
    return ApiError(falcon.HTTP_422, "invalid input", errors)


def not_found(what: str) -> ApiError:
    return ApiError(falcon.HTTP_404, what)


def media_type(req: falcon.Request) -> str:
    """The request's Content-Type without its parameters, lowercase ('' when it has none)."""
    return (req.content_type or "").split(";")[0].strip().lower()


def has_body(req: falcon.Request) -> bool:
    return bool(req.content_length) or req.get_header("Transfer-Encoding") is not None


def require_json(req: falcon.Request) -> None:
    """Refuses (415) a write whose body is not declared JSON. A cross-site page can make a
    browser send text/plain, a form or multipart without asking the site first (no CORS
    preflight), never application/json: this is what keeps such writes out of the API."""
    if media_type(req) != JSON:
        raise ApiError(
            falcon.HTTP_415,
            "the body must be application/json",
            [f"Content-Type: {req.content_type or '(none)'}"],
        )


def require_json_if_any_body(req: falcon.Request) -> None:
    """For a write that takes no body (DELETE): one it is sent anyway must be JSON too."""
    if has_body(req):
        require_json(req)


def read_body(req: falcon.Request) -> bytes | None:
    """The request's body, or None when it is over MAX_BODY_BYTES. A body of unknown length
    (chunked) is read to its end when the server marks it as ending there
    (``wsgi.input_terminated``, as gunicorn and mod_wsgi do); reading on without that mark
    could wait forever."""
    if req.content_length is not None and req.content_length > MAX_BODY_BYTES:
        return None
    if req.content_length is None and req.env.get("wsgi.input_terminated"):
        stream = req.stream
    else:
        stream = req.bounded_stream
    raw = b""
    while len(raw) <= MAX_BODY_BYTES:
        chunk = stream.read(MAX_BODY_BYTES + 1 - len(raw))
        if not chunk:
            break
        raw += chunk
    return raw if len(raw) <= MAX_BODY_BYTES else None


def read_json(req: falcon.Request, schema: Schema) -> dict[str, Any]:
    """The request's JSON body, checked against ``schema``."""
    require_json(req)
    raw = read_body(req)
    if raw is None:
        raise ApiError(falcon.HTTP_413, BODY_TOO_LARGE_TITLE)
    try:
        body = parse_json(raw)
    except JsonTextError as error:
        raise ApiError(falcon.HTTP_400, "the body is not JSON", [str(error)]) from None
    found = problems(schema, body)
    if found:
        raise invalid(found)
    result: dict[str, Any] = body
    return result


def answer(resp: falcon.Response, document: Any, status: str = falcon.HTTP_200) -> None:
    resp.status = status
    resp.content_type = JSON
    resp.data = json.dumps(document, separators=(",", ":")).encode()


def actor(req: falcon.Request) -> str:
    """Who makes a write, as the history records it: the server's authenticated user, else
    the client's own name for itself, else anonymous; with the client's address."""
    user = req.env.get("REMOTE_USER") or req.get_header(ACTOR_HEADER) or "anonymous"
    if not ACTOR_PATTERN.fullmatch(user):
        raise invalid([f"{ACTOR_HEADER}: 1 to 64 of A-Z a-z 0-9 . _ @ + -"])
    return f"{user}@{req.remote_addr or 'unknown'}"


def paging(req: falcon.Request) -> tuple[int, int]:
    errors = []
    values = []
    for name, default, low, high in (("offset", 0, 0, 10**9), ("limit", 20, 1, MAX_LIMIT)):
        text = req.get_param(name)
        if text is None:
            values.append(default)
            continue
        number = whole_number(text)
        if number is None or not low <= number <= high:
            errors.append(f"{name}: an integer from {low} to {high}")
            values.append(default)
        else:
            values.append(number)
    if errors:
        raise invalid(errors)
    return values[0], values[1]


def whole_number(text: str) -> int | None:
    """The number ``text`` spells in ASCII digits (at most 18 of them), else None: ``isdigit()``
    is true of '²' and '٣', which ``int()`` refuses or reads."""
    return int(text) if DIGITS.fullmatch(text) else None


def canonical_query(req: falcon.Request, known: dict[str, object]) -> str | None:
    """The query a page is kept under: the parameters the request gives, each in the form the
    resource read it (``known``: name → value), sorted. None (the page is never kept) when the
    request carries a parameter the resource does not read, or one twice: every spelling of a
    query would otherwise be a page of its own, without end."""
    given = req.params
    if any(name not in known or isinstance(value, list) for name, value in given.items()):
        return None
    return urlencode(sorted((name, str(known[name])) for name in given))


def next_url(req: falcon.Request, offset: int, limit: int, total: int) -> str | None:
    if offset + limit >= total:
        return None
    params = sorted((k, v) for k, v in req.params.items() if k not in {"offset", "limit"})
    extra = f"&{urlencode(params, doseq=True)}" if params else ""
    return f"{req.path}?offset={offset + limit}&limit={limit}{extra}"


class Context:
    """What the resources share: a pool of catalogs, each on its own connection (a request
    borrows one: connections are not shared between threads) and observed by the page cache's
    sweeper, and the page cache."""

    def __init__(self, database_url: str, pages: PageCache) -> None:
        self.database_url = database_url
        self.pages = pages
        self._idle: list[Catalog] = []
        self._all: list[Catalog] = []
        self._lock = threading.Lock()

    def borrow(self) -> Catalog:
        with self._lock:
            if self._idle:
                return self._idle.pop()
        repository = open_repository(self.database_url)
        repository.observe(PageSweeper(self.pages))
        catalog = Catalog(repository)
        with self._lock:
            self._all.append(catalog)
        return catalog

    def give_back(self, catalog: Catalog) -> None:
        with self._lock:
            self._idle.append(catalog)

    def close(self) -> None:
        """Closes every connection (the server is stopping)."""
        with self._lock:
            for catalog in self._all:
                catalog.repository.connection.close()
            self._all.clear()
            self._idle.clear()

    def cached(
        self,
        req: falcon.Request,
        resp: falcon.Response,
        family: str,
        build: Callable[[], Any],
        *,
        params: dict[str, object] | None = None,
        render: "Renderer | None" = None,
        finish: Callable[[bytes], bytes] | None = None,
    ) -> None:
        """Answers a GET from the page cache, building and keeping the page on a miss.

        ``params`` are the query parameters the page is built from, as the resource read them
        (a request with any other is built and not kept); ``render`` turns what ``build``
        returns into a body and its type (JSON by default); ``finish`` fills in, on every
        request, what differs per browser (the form's token), so that the page is cached
        without it."""
        query = canonical_query(req, params or {})
        lookup = self.pages.lookup(family, req.path, query, shareable=finish is None)
        page = lookup.page
        if page is None:
            body, content_type = (render or render_json)(build())
            page = CachedPage(body, content_type, etag_of(body))
            self.pages.keep(lookup, page)
            resp.set_header("X-Cache", "miss")
        else:
            resp.set_header("X-Cache", "hit")
        if finish is not None:
            body = finish(page.body)
            page = CachedPage(body, page.content_type, etag_of(body))
        resp.set_header("ETag", page.etag)
        if matches(req.get_header("If-None-Match"), page.etag):
            resp.status = falcon.HTTP_304
            return
        resp.content_type = page.content_type
        resp.data = page.body


Renderer = Callable[[Any], tuple[bytes, str]]


def render_json(document: Any) -> tuple[bytes, str]:
    return json.dumps(document, separators=(",", ":")).encode(), JSON


def matches(if_none_match: str | None, etag: str) -> bool:
    """``If-None-Match`` names this ETag (weakly compared, as RFC 9110 says for GET)."""
    if not if_none_match:
        return False
    tags = [tag.strip().removeprefix("W/") for tag in if_none_match.split(",")]
    return "*" in tags or etag in tags


class CatalogPerRequest:
    """Falcon middleware: each request borrows a catalog and gives it back."""

    def __init__(self, context: Context) -> None:
        self.context = context

    def process_request(self, req: falcon.Request, resp: falcon.Response) -> None:
        req.context.catalog = self.context.borrow()
        req.context.catalog.repository.write_attempts = 0

    def process_response(
        self, req: falcon.Request, resp: falcon.Response, resource: Any, req_succeeded: bool
    ) -> None:
        catalog = getattr(req.context, "catalog", None)
        if catalog is not None:
            attempts = catalog.repository.write_attempts
            if attempts:
                resp.set_header(WRITE_ATTEMPTS_HEADER, str(attempts))
            self.context.give_back(catalog)
