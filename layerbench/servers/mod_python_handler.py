"""A pure mod_python handler, no WSGI: the string rung as seed 002 measured it. Apache's
mod_python imports this module (``PythonHandler``) in its own interpreter."""

from mod_python import apache  # type: ignore[import-not-found]

from layerbench.rungs.rung_data import HELLO_VALUE

HELLO = HELLO_VALUE.encode()
# The paths it answers: the string rung, and the health check the adapter waits on.
BODIES = {"/ladder/string": HELLO, "/health": b"ok"}


def handler(request: "apache.request") -> int:
    body = BODIES.get(request.uri)
    if body is None:
        return int(apache.HTTP_NOT_FOUND)
    request.content_type = "text/plain; charset=utf-8"
    request.set_content_length(len(body))
    if request.method != "HEAD":
        request.write(body)
    return int(apache.OK)
