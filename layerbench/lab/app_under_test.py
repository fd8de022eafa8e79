"""The application a run measures (``--app NAME``, a matrix column's ``app=NAME``): the
environment that makes every server serve it, whether it answers a rung, and whether its
framework is installed, found out before anything starts.

The check imports the application's entry module in a child process (a framework's import
configures it, which belongs in a process of its own); only a module that is not there refuses
the run: any other import error is the server's to report when it starts."""

import importlib
import os
import subprocess
import sys

from layerbench.errors import ConfigError, MissingPackageError
from layerbench.rungs.applications import Application
from layerbench.rungs.definitions import Rung, Stack
from layerbench.site_contract import (
    ASGI_APP_VARIABLE,
    USER_APP_PATH_VARIABLE,
    USER_APP_VARIABLE,
    parse_spec,
)

IMPORT_TIMEOUT_S = 60.0
# The child's exit status when a module is missing (its name the last line on stderr).
EXIT_MISSING = 3


def app_environment(app: Application) -> dict[str, str]:
    """What the servers' environment needs so that they serve ``app`` (nothing for the bare
    application, which ``layerbench_sites.app.entry`` is): an ASGI application's entry is named to
    ``layerbench_sites.app.asgi_entry``, a WSGI one's to ``layerbench_sites.app.entry``."""
    if app.entry is None:
        return {}
    variable = ASGI_APP_VARIABLE if app.interface == "asgi" else USER_APP_VARIABLE
    return {variable: app.entry}


def not_applicable(app: Application, rung: Rung) -> str | None:
    """Why ``app`` does not answer ``rung`` (None: it does). nginx's static file is no
    application's; a mixed rung is answered when both its rungs are."""
    if rung.stack is Stack.STATIC:
        return None
    names = [part.name for _, part in rung.mix] if rung.mix else [rung.name]
    if all(app.answers_rung(name) for name in names):
        return None
    return f"not applicable to {app.name}"


def check_installed(app: Application) -> None:
    """A MissingPackageError naming the pip package when ``app``'s entry imports a module that
    is not installed; a ConfigError when the entry module itself is not in this layerbench."""
    if app.entry is None:
        return
    module, _ = parse_spec(app.entry)
    try:
        completed = subprocess.run(
            [sys.executable, "-m", __name__, module],
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            timeout=IMPORT_TIMEOUT_S,
            check=False,
        )
    except subprocess.TimeoutExpired:
        return  # slow, not missing: the server's start will tell
    lines = completed.stderr.split()
    if completed.returncode != EXIT_MISSING or not lines:
        return
    missing = lines[-1]
    if missing == "layerbench" or missing.startswith("layerbench."):
        raise ConfigError(f"the {app.name} application is not in this layerbench (no {missing})")
    package = missing.partition(".")[0]
    what = f"{package} (for the {app.name} application)"
    raise MissingPackageError(what, f"pip install {package}")


def _import(module: str) -> int:
    """In the child: import ``module`` as the servers would (``$LAYERBENCH_WSGI_APP_PATH``
    first); 0, or the missing module's name and ``EXIT_MISSING``."""
    paths = [p for p in os.environ.get(USER_APP_PATH_VARIABLE, "").split(os.pathsep) if p]
    sys.path[:0] = paths
    try:
        importlib.import_module(module)
    except ModuleNotFoundError as error:
        print(error.name or module, file=sys.stderr)
        return EXIT_MISSING
    except Exception:  # not missing: the server's start reports it
        return 0
    return 0


if __name__ == "__main__":
    sys.exit(_import(sys.argv[1]))
