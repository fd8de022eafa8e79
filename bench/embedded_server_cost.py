"""What a server that embeds Python costs per request, in instructions: uWSGI (one worker and no
master, so the worker is the process valgrind starts) and mod_wsgi's daemon mode (Apache under
valgrind; the daemon process is forked from Apache's parent, and valgrind follows a fork).

Neither has gunicorn's hooks at a worker's start and exit, so the window is opened and closed by
the application itself: its script (the one the servers load, layerbench.servers.app_script)
gets a wrapper that zeroes callgrind's counts at ``/__cost/start`` and dumps them at
``/__cost/stop``; everything between (the requests, and whatever the server does meanwhile, in
every thread: callgrind collects from the start, since a toggle would count only the thread that
made it) is counted, in the process that answered. Used by bench/server_cost.py.
"""

import os
import shutil
import subprocess
import time
from pathlib import Path

from layerbench.cost.callgrind_dumps import dump_files, instructions
from layerbench.cost.shim_build import find_valgrind, shim_library
from layerbench.lab.loadgen import find_load_generator
from layerbench.proc.http_probe import http_get
from layerbench.proc.ports import free_port
from layerbench.proc.process import ManagedProcess
from layerbench.servers.apache import ApacheSettings
from layerbench.servers.embedded_app import EmbeddedApp
from layerbench.servers.managed_server import ManagedServer
from layerbench.servers.mod_wsgi import ModWsgiDaemonSettings, ModWsgiServer
from layerbench.servers.uwsgi import UwsgiServer, UwsgiSettings
from layerbench_sites.app.ladder_data import prepare_app_data

KINDS = ("uwsgi", "mod_wsgi-daemon")
LABEL = "window"
WARMUP_REQUESTS = 20
WRAPPER = '''

import ctypes as _ctypes

_shim = _ctypes.CDLL({shim!r})
_counted_application = application


def application(environ, start_response):
    """The application, and the two paths that open and close callgrind's window."""
    path = environ.get("PATH_INFO")
    if path == "/__cost/start":
        _shim.layerbench_zero_stats()
    elif path == "/__cost/stop":
        _shim.layerbench_dump_stats_at({label!r})
    else:
        return _counted_application(environ, start_response)
    start_response("200 OK", [("Content-Type", "text/plain"), ("Content-Length", "2")])
    return [b"ok"]
'''


def embedded_count(kind: str, requests: int, directory: Path, path: str) -> float:
    """The instructions of the process that serves ``requests`` requests of ``path``, between
    the two window requests, after a warm-up."""
    directory.mkdir(parents=True)
    directory.chmod(0o777)  # Apache's daemon process (another account) writes its dump here
    data = prepare_app_data(directory / "data")
    app = EmbeddedApp(db_path=data.db_path, app_environment=data.environment)
    port = free_port()
    server = _server(kind, directory / "server", port, app)
    server.workdir.mkdir()
    server.prepare()
    script = Path(getattr(server, "script", server.workdir / "layerbench_app.py"))
    shim = directory / "callgrind_shim.so"  # where Apache's daemon (another account) reads it
    shutil.copyfile(shim_library(), shim)
    shim.chmod(0o755)
    with script.open("a") as appended:
        appended.write(WRAPPER.format(shim=str(shim), label=LABEL.encode()))
    argv = [
        str(find_valgrind()), "--tool=callgrind", "--collect-atstart=yes", "--trace-children=yes",
        f"--callgrind-out-file={directory}/callgrind.out.%p",
        # No master for uwsgi: its one worker is the process valgrind starts.
        *(word for word in server.command() if word != "--master"),
    ]  # fmt: skip
    environment = {**(server.environment() or os.environ), "PYTHONHASHSEED": "0"}
    base = f"http://127.0.0.1:{port}"
    with ManagedProcess(kind, argv, log_path=directory / "log", env=environment):
        wait_ready(base + "/health")
        _load(base + path, WARMUP_REQUESTS)
        _get(base + "/__cost/start")
        _load(base + path, requests)
        _get(base + "/__cost/stop")
    dumps = [dump for label, dump in dump_files(directory).items() if label == LABEL]
    if len(dumps) != 1:
        raise SystemExit(f"expected one dump of the window in {directory}, found {dumps}")
    return float(instructions(dumps[0]))


def _server(kind: str, workdir: Path, port: int, app: EmbeddedApp) -> ManagedServer:
    if kind == "uwsgi":  # HTTP straight into its worker
        return UwsgiServer(workdir, port, app, UwsgiSettings(processes=1, http_socket=True))
    settings = ApacheSettings(start_servers=1, threads_per_child=4, min_spare_threads=1,
                              max_spare_threads=4, max_request_workers=4)  # fmt: skip
    daemon = ModWsgiDaemonSettings(processes=1, threads=1)
    return ModWsgiServer(workdir, port, app, settings, mode=daemon)


def _load(url: str, requests: int) -> None:
    subprocess.run(
        [str(find_load_generator()), "-n", str(requests), "-c", "1", "-k", url],
        check=True, capture_output=True,
    )  # fmt: skip


def _get(url: str) -> None:
    status = http_get(url, timeout_s=120.0).status
    if status != 200:
        raise SystemExit(f"{url}: HTTP {status}")


def wait_ready(url: str, what: str = "the server under valgrind", timeout_s: float = 240.0) -> None:
    """Return once ``url`` answers 200; exit naming ``what`` when it has not in ``timeout_s``."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        try:
            if http_get(url, timeout_s=5.0).status == 200:
                return
        except OSError:
            pass
        time.sleep(0.5)
    raise SystemExit(f"{what} did not answer {url} in {timeout_s:.0f} s")
