"""mod_python's WSGI handler (``mod_python.wsgi``) with its status bug mended: its C
``start_response`` sets only the status line, so Apache answers 200 whatever the application
says (grisha/mod_python#53, still in Debian 12's 3.5.0). This is the same handler, calling the
same C ``start_response``, that also sets the status. Apache's mod_python imports it
(``PythonHandler``); the application module is its ``mod_python.wsgi.application`` option, as
for the original.

One more mend: each request runs with the thread-local values of the Apache thread it runs on
(:mod:`.mod_python_thread_locals`), not those of the request that last used mod_python's pooled
thread state on another thread."""

from collections.abc import Iterable
from typing import Any

from mod_python import apache  # type: ignore[import-not-found]

from layerbench.servers.mod_python_thread_locals import own_thread_locals

APPLICATION_OPTION = "mod_python.wsgi.application"


def handler(request: Any) -> int:
    with own_thread_locals():
        return _serve(request)


def _serve(request: Any) -> int:
    module_name, _, callable_name = request.get_options()[APPLICATION_OPTION].partition("::")
    module = apache.import_module(module_name, autoreload=False, log=False)
    application = getattr(module, callable_name or "application")
    environ = request.build_wsgi_env()

    def start_response(status: str, headers: list[tuple[str, str]], exc_info: Any = None) -> Any:
        # The C function reads a positional tuple; it refuses exc_info=None passed explicitly.
        args = (status, headers) if exc_info is None else (status, headers, exc_info)
        write = request.wsgi_start_response(*args)
        request.status = int(status[:3])
        return write

    response: Iterable[bytes] = application(environ, start_response)
    try:
        for chunk in response:
            request.write(chunk)
    finally:
        close = getattr(response, "close", None)
        if close is not None:
            close()
    return int(apache.OK)
