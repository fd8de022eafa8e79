"""The child a cost run starts under callgrind: it imports the application, and for each
request of its plan warms it up, then collects the instructions of N calls of the WSGI
callable with that request, dumped to a file of their own (named by the request's label).

Run as ``python -m layerbench.cost.collect_child PLAN.json``; it writes what each request
answered (its statuses, the last body) to the plan's ``answers_path`` for the parent to
verify. Nothing here measures time: only what callgrind counts between the toggles."""

import base64
import ctypes
import gc
import importlib
import io
import json
import sys
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any

from layerbench.typed_documents import Bounds, JsonObject, decode, encode

StartResponse = Callable[..., Any]
Environ = dict[str, Any]  # boundary: PEP 3333's environ: CGI variables and wsgi.* objects
WSGIApplication = Callable[[Environ, StartResponse], Iterable[bytes]]
# The label of the harness's own cost: the same loop around an application that does nothing.
HARNESS_LABEL = "(harness)"


@dataclass(frozen=True)
class CollectRequest:
    """One request of the plan (cost_run.py's ``_request_document``)."""

    method: str
    path: str
    label: str = ""
    body_b64: str | None = None
    content_type: str | None = None


@dataclass(frozen=True)
class CollectPlan:
    """What the child is asked to count (cost_run.py's ``_write_child_plan``)."""

    shim_path: str
    answers_path: str
    warmup: Annotated[int, Bounds(low=0)]
    count: Annotated[int, Bounds(low=1)]
    requests: Annotated[tuple[CollectRequest, ...], Bounds(least=1)]


@dataclass(frozen=True)
class CollectAnswer:
    """What a request answered in the child, for the parent to verify (cost_run.py): every
    collected call's status and how often, the last call's status and body."""

    statuses: dict[str, int]
    last_status: int
    last_body_b64: str


def wsgi_environ(request: CollectRequest) -> Environ:
    """A PEP 3333 environ for ``request`` (its body's stream is set per call)."""
    path, _, query = request.path.partition("?")
    body = _body(request)
    environ: Environ = {
        "REQUEST_METHOD": request.method,
        "SCRIPT_NAME": "",
        "PATH_INFO": path,
        "QUERY_STRING": query,
        "SERVER_NAME": "127.0.0.1",
        "SERVER_PORT": "80",
        "SERVER_PROTOCOL": "HTTP/1.1",
        "REMOTE_ADDR": "127.0.0.1",
        "HTTP_HOST": "127.0.0.1",
        "HTTP_USER_AGENT": "layerbench-cost",
        "HTTP_ACCEPT": "*/*",
        "wsgi.version": (1, 0),
        "wsgi.url_scheme": "http",
        "wsgi.errors": sys.stderr,
        "wsgi.multithread": False,
        "wsgi.multiprocess": False,
        "wsgi.run_once": False,
    }
    if body:
        environ["CONTENT_LENGTH"] = str(len(body))
    if request.content_type:
        environ["CONTENT_TYPE"] = request.content_type
    return environ


def _body(request: CollectRequest) -> bytes:
    return base64.b64decode(request.body_b64) if request.body_b64 else b""


class Caller:
    """Calls an application with one request, again and again, as a server would: a fresh
    environ and input stream each time, the body read whole, ``close()`` called."""

    def __init__(
        self, application: WSGIApplication, request: CollectRequest | Mapping[str, object]
    ) -> None:
        if not isinstance(request, CollectRequest):
            request = decode(CollectRequest, request, "the request")
        self.application = application
        self.environ = wsgi_environ(request)
        self.body = _body(request)
        self.status = ""
        self.statuses: dict[str, int] = {}

    def start_response(self, status: str, headers: list[Any], exc_info: Any = None) -> None:
        self.status = status

    def call(self) -> bytes:
        environ = dict(self.environ)
        environ["wsgi.input"] = io.BytesIO(self.body)
        iterable = self.application(environ, self.start_response)
        try:
            answer = b"".join(iterable)
        finally:
            close = getattr(iterable, "close", None)
            if close is not None:
                close()
        code = self.status[:3]
        self.statuses[code] = self.statuses.get(code, 0) + 1
        return answer


def nothing(environ: Environ, start_response: StartResponse) -> Iterable[bytes]:
    """The harness's anchor: an application that does nothing but answer."""
    start_response("200 OK", [("Content-Type", "text/plain")])
    return [b"ok"]


class Callgrind:
    def __init__(self, shim_path: str) -> None:
        library = ctypes.CDLL(shim_path)
        self._zero = library.layerbench_zero_stats
        self._toggle = library.layerbench_toggle_collect
        self._dump = library.layerbench_dump_stats_at
        self._dump.argtypes = [ctypes.c_char_p]
        self.start_instrumentation = library.layerbench_start_instrumentation

    def collect(self, caller: Caller, requests: int, label: str) -> bytes:
        """N calls collected, dumped under ``label``; the last answer."""
        answer = b""
        call = caller.call
        zero, toggle = self._zero, self._toggle
        gc.collect()  # every window starts from the same collector's state
        zero()
        toggle()
        for _ in range(requests):
            answer = call()
        toggle()
        self._dump(label.encode())
        return answer


def main(plan_path: str) -> int:
    plan = decode(CollectPlan, json.loads(Path(plan_path).read_text()), plan_path)
    callgrind = Callgrind(plan.shim_path)
    # The application the servers import, configured by the environment.
    application = importlib.import_module("layerbench_sites.app.entry").application

    answers: JsonObject = {}
    callgrind.start_instrumentation()  # the imports above ran uninstrumented, faster
    harness = Caller(nothing, plan.requests[0])
    for _ in range(plan.warmup):
        harness.call()
    callgrind.collect(harness, plan.count, HARNESS_LABEL)
    for request in plan.requests:
        caller = Caller(application, request)
        for _ in range(plan.warmup):
            caller.call()
        last = callgrind.collect(caller, plan.count, request.label)
        answer = CollectAnswer(
            statuses=caller.statuses,
            last_status=int(caller.status[:3] or 0),
            last_body_b64=base64.b64encode(last).decode(),
        )
        answers[request.label] = encode(answer)
    Path(plan.answers_path).write_text(json.dumps(answers))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
