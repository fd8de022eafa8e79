"""Whether the user's ``package.module:callable`` loads, found out before any server starts, in
a child process: importing runs the user's code, whose side effects (a connection opened, a
file written) belong in a process of its own, never in layerbench's.

The child is the servers' interpreter with the servers' path (``--app-path`` first, then the
current directory) and loads the application exactly as they do
(:func:`layerbench_sites.app.user_app.load_user_app`); it says why not in one line, its last on
stderr."""

import os
import subprocess
import sys
import traceback

from layerbench.errors import ConfigError
from layerbench.site_contract import USER_APP_PATH_VARIABLE, USER_APP_VARIABLE, parse_spec
from layerbench_sites.app.user_app import from_environment

IMPORT_TIMEOUT_S = 60.0
# The child's exit status when it explains itself; any other failure is the import's own.
EXIT_EXPLAINED = 3


def check_importable(spec: str, paths: list[str]) -> None:
    """A ConfigError naming the problem when ``spec`` does not load from ``paths``."""
    module_name, _ = parse_spec(spec)
    environment = {
        **os.environ,
        USER_APP_VARIABLE: spec,
        USER_APP_PATH_VARIABLE: os.pathsep.join(paths),
    }
    try:
        completed = subprocess.run(
            [sys.executable, "-m", __name__],
            env=environment,
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            timeout=IMPORT_TIMEOUT_S,
            check=False,
        )
    except subprocess.TimeoutExpired:
        raise ConfigError(
            f"cannot import {module_name}: it took more than {IMPORT_TIMEOUT_S:.0f} s"
        ) from None
    if completed.returncode == 0:
        return
    lines = [line for line in completed.stderr.splitlines() if line.strip()]
    if completed.returncode == EXIT_EXPLAINED and lines:
        raise ConfigError(lines[-1])
    last = f": {lines[-1].strip()}" if lines else ""
    raise ConfigError(
        f"cannot import {module_name}: the import ended its process "
        f"(exit status {completed.returncode}){last}"
    )


def _explain() -> int:
    """In the child: load the application named in the environment; 0, or one line on stderr
    and ``EXIT_EXPLAINED``."""
    module_name, _ = parse_spec(os.environ[USER_APP_VARIABLE])
    try:
        from_environment()
    except ConfigError as error:
        reason = str(error)
    except SystemExit as exit_:
        reason = f"cannot import {module_name}: it called sys.exit({exit_.code!r})"
    except Exception as error:
        reason = f"cannot import {module_name}: {type(error).__name__}: {error}{_at(error)}"
    else:
        return 0
    print(reason.replace("\n", " "), file=sys.stderr)
    return EXIT_EXPLAINED


def _at(error: Exception) -> str:
    """Where in the user's code ``error`` was raised (a SyntaxError says so itself)."""
    frames = traceback.extract_tb(error.__traceback__)
    if isinstance(error, SyntaxError) or not frames:
        return ""
    return f" (at {frames[-1].filename}, line {frames[-1].lineno})"


if __name__ == "__main__":
    sys.exit(_explain())
