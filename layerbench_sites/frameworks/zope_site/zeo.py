"""The ZEO server through which every process of the Zope application shares its ZODB.

A FileStorage is one process's: it locks its file. A Zope deployment with several processes
(seed 003's mod_wsgi daemon with 4 processes, gunicorn's workers) puts the FileStorage behind a
ZEO server and makes each process a ZEO client, as Zope's own deployments (a ``zeoserver`` and
its ``instance`` clients) do. Here the application's processes start that server themselves:
the first process to start starts it, on a Unix socket beside the storage, and the others find
it answering there. Starts take turns (:func:`starting_alone`), so two processes never both
start a server, nor both make Zope's first objects in a new database.

The server is a child of the process that started it, in the server's process group: the lab
stops it with that group (and the group's watchdog, should the lab die), and it outlives the
worker that started it, should that one be recycled; it ends itself once it is alone in the
group (:mod:`zeo_server`). Its CPU and memory are counted with the
server's processes, which the sampler follows. It runs on the interpreter the application runs
on, with the application's ``sys.path`` and layerbench's directory: an embedded Python
(mod_wsgi, uWSGI) has the project's packages on its path, not in Debian's ``python3``'s.
"""

import fcntl
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import layerbench
from layerbench.errors import LayerbenchError

SERVER_MODULE = "layerbench_sites.frameworks.zope_site.zeo_server"
START_TIMEOUT_S = 30.0
POLL_S = 0.05
# The interpreter the project's virtualenv is built on, for a server embedding Python (whose
# sys.executable is then the server's binary, not a Python).
SYSTEM_PYTHON = "/usr/bin/python3"
# A Unix socket's path must fit sockaddr_un's sun_path (108 bytes with its NUL).
MAX_SOCKET_PATH = 107

# The servers this process started (kept, so that they are not garbage collected as running).
_started: list[subprocess.Popen[bytes]] = []


class ZeoServerError(LayerbenchError):
    """The ZEO server for the application's storage could not be started."""


def zeo_address(storage: Path) -> Path:
    """The Unix socket the storage's ZEO server listens on."""
    address = storage.with_name(f"{storage.name}.zeo")
    if len(os.fsencode(address)) > MAX_SOCKET_PATH:
        raise ZeoServerError(
            f"the ZEO socket {address} is longer than a Unix socket's path may be "
            f"({MAX_SOCKET_PATH} bytes): give the ZODB file a shorter path"
        )
    return address


def zeo_log(storage: Path) -> Path:
    """The ZEO server's log (a line per client connected: ``received handshake``)."""
    return storage.with_name(f"{storage.name}.zeo.log")


@contextmanager
def starting_alone(storage: Path) -> Iterator[None]:
    """Hold the storage's start lock: the application's processes start one at a time."""
    with open(storage.with_name(f"{storage.name}.start-lock"), "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def answering(address: Path) -> bool:
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as probe:
        try:
            probe.connect(str(address))
        except OSError:
            return False
    return True


def ensure_zeo_server(storage: Path) -> Path:
    """The address of the storage's ZEO server, started now if none answers (call it with the
    start lock held)."""
    address = zeo_address(storage)
    if answering(address):
        return address
    address.unlink(missing_ok=True)  # a socket left by a server that is gone
    log_path = zeo_log(storage)
    pid_file = storage.with_name(f"{storage.name}.zeo.pid")
    argv = ["-a", str(address), "-f", str(storage), "--pid-file", str(pid_file)]
    with open(log_path, "ab") as log:
        server = subprocess.Popen(
            [_python(), "-m", SERVER_MODULE, *argv],
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=subprocess.STDOUT,
            env={**os.environ, "PYTHONPATH": _python_path()},
            cwd=storage.parent,
        )
    _started.append(server)
    deadline = time.monotonic() + START_TIMEOUT_S
    while not answering(address):
        if server.poll() is not None:
            raise ZeoServerError(
                f"the ZEO server for {storage} exited ({server.returncode}): {_tail(log_path)}"
            )
        if time.monotonic() > deadline:
            server.kill()
            server.wait()
            raise ZeoServerError(f"the ZEO server for {storage} did not answer in time")
        time.sleep(POLL_S)
    return address


def _python() -> str:
    executable = Path(sys.executable)
    return str(executable) if executable.name.startswith("python") else SYSTEM_PYTHON


def _python_path() -> str:
    """This process's ``sys.path``, after layerbench's own directory: an editable install finds
    layerbench through an import hook (installed by a ``.pth`` file), not ``sys.path``."""
    project = str(Path(layerbench.__file__).resolve().parent.parent)
    return os.pathsep.join(dict.fromkeys([project, *(p for p in sys.path if p)]))


def _tail(log_path: Path) -> str:
    try:
        lines = log_path.read_text(errors="replace").strip().splitlines()
    except OSError:
        return "(no log)"
    return lines[-1] if lines else "(an empty log)"
