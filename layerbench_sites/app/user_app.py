"""A user's own WSGI application in place of the reference one (``layerbench smoke``): named
``package.module:callable`` in ``$LAYERBENCH_WSGI_APP``, imported from the directories in
``$LAYERBENCH_WSGI_APP_PATH`` first. Every server adapter loads ``layerbench_sites.app.entry``, so
each of them runs it unchanged.

The servers wait for a 200 at ``/health`` before they are ready; the application is wrapped
so that this one path answers, and every other request goes to it untouched."""

import importlib
import os
import sys
from collections.abc import Callable, Iterable
from typing import Any

from layerbench.errors import ConfigError
from layerbench.site_contract import (
    HEALTH_PATH,
    USER_APP_PATH_VARIABLE,
    USER_APP_VARIABLE,
    parse_spec,
)

PROBE_PATH = HEALTH_PATH

StartResponse = Callable[..., Any]
WSGIApplication = Callable[[dict[str, Any], StartResponse], Iterable[bytes]]


def load_user_app(spec: str, paths: list[str]) -> WSGIApplication:
    return with_probe(import_callable(spec, paths))


def import_callable(spec: str, paths: list[str]) -> Any:
    """The callable ``spec`` (package.module:callable) names, imported from ``paths`` first;
    a ConfigError saying why when it cannot be."""
    module_name, name = parse_spec(spec)
    for path in reversed(paths):
        if path not in sys.path:
            sys.path.insert(0, path)
    try:
        module = importlib.import_module(module_name)
    except ImportError as error:
        raise ConfigError(
            f"cannot import {module_name}: {error}{_looked_in(module_name, error, paths)}"
        ) from None
    if not hasattr(module, name):
        raise ConfigError(f"module {module_name} has no attribute {name!r}")
    application = getattr(module, name)
    if not callable(application):
        kind = type(application).__name__
        raise ConfigError(f"{module_name}:{name} is not callable (it is a {kind})")
    return application


def _looked_in(module_name: str, error: ImportError, paths: list[str]) -> str:
    """Where the application's package was looked for, when that is what was not found (not
    a module it imports)."""
    if not isinstance(error, ModuleNotFoundError) or error.name != module_name.partition(".")[0]:
        return ""
    return f" (looked in {', '.join(paths) or 'sys.path'} first; see --app-path)"


def from_environment() -> WSGIApplication | None:
    spec = os.environ.get(USER_APP_VARIABLE)
    if not spec:
        return None
    paths = [p for p in os.environ.get(USER_APP_PATH_VARIABLE, "").split(os.pathsep) if p]
    return load_user_app(spec, paths)


def with_probe(application: WSGIApplication) -> WSGIApplication:
    def probed(environ: dict[str, Any], start_response: StartResponse) -> Iterable[bytes]:
        if environ.get("PATH_INFO") == PROBE_PATH:
            start_response("200 OK", [("Content-Type", "text/plain"), ("Content-Length", "2")])
            return [b"ok"]
        return application(environ, start_response)

    return probed
