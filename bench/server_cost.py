"""What a server's worker costs per request, in instructions, serving the string rung over
loopback: a gunicorn worker under callgrind, counted (all its threads) from its start
(post_worker_init, which zeroes the counts) to its exit, for two numbers of requests; the
difference over the difference of the counts is its cost per request, the server's work and the
application's together. uWSGI (one worker, no master) and mod_wsgi's daemon process are counted
between two requests the application answers itself (bench/embedded_server_cost.py), after a
warm-up. One run.

    .venv/bin/python bench/server_cost.py [--workers sync,gthread,uwsgi,mod_wsgi-daemon]
        [--requests 200,600] [--repeats 3]

One worker, one connection at a time (layerbench-load -c 1, keep-alive asked; gunicorn's sync
worker closes each connection), PYTHONHASHSEED=0. What the worker does while idle (its loop
wakes about once a second to tell the master it lives) is counted too, and is part of what
varies: the figures' spread over the repeats is printed beside them. The application's own
in-process count of the same rung (layerbench cost) is printed as the anchor.
"""

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from embedded_server_cost import KINDS, embedded_count, wait_ready

from layerbench.cost.callgrind_dumps import instructions
from layerbench.cost.ladder_cost import CostOptions, run_cost
from layerbench.cost.shim_build import find_valgrind, shim_library
from layerbench.lab.loadgen import find_load_generator
from layerbench.proc.ports import free_port
from layerbench.proc.process import ManagedProcess
from layerbench_sites.app.app_config import DB_PATH_VARIABLE
from layerbench_sites.app.ladder_data import prepare_app_data

HOOKS = """
import ctypes

_shim = ctypes.CDLL({shim!r})


def post_worker_init(worker):
    _shim.layerbench_zero_stats()


def worker_exit(server, worker):
    _shim.layerbench_dump_stats_at(b"worker")
"""
PATH = "/ladder/string"


def worker_count(kind: str, requests: int, directory: Path) -> float:
    """The worker's instructions from its start to its exit, ``requests`` served."""
    directory.mkdir(parents=True)
    data = prepare_app_data(directory / "data")
    hooks = directory / "hooks.py"
    hooks.write_text(HOOKS.format(shim=str(shim_library())))
    port = free_port()
    argv = [
        # Collecting from the start in every thread: callgrind's collection state is a
        # thread's own, so a toggle in the main thread left gthread's pool threads (the
        # requests themselves) uncounted; what comes before post_worker_init is zeroed.
        str(find_valgrind()), "--tool=callgrind", "--collect-atstart=yes",
        f"--callgrind-out-file={directory}/callgrind.out.%p",
        sys.executable, "-m", "gunicorn", "--workers", "1", "--worker-class", kind,
        "--threads", "4" if kind == "gthread" else "1", "--bind", f"127.0.0.1:{port}",
        "--config", str(hooks), "--timeout", "600", "layerbench_sites.app.entry:application",
    ]  # fmt: skip
    environment = {
        **os.environ,
        **data.environment,
        DB_PATH_VARIABLE: str(data.db_path),
        "PYTHONHASHSEED": "0",
    }
    with ManagedProcess("gunicorn", argv, log_path=directory / "log", env=environment):
        wait_ready(f"http://127.0.0.1:{port}/health", "gunicorn under valgrind", 180.0)
        subprocess.run(
            [str(find_load_generator()), "-n", str(requests), "-c", "1", "-k",
             f"http://127.0.0.1:{port}{PATH}"],
            check=True, capture_output=True,
        )  # fmt: skip
    dumps = sorted(directory.glob("callgrind.out.*.*"))  # the worker's dump (pid.part)
    if len(dumps) != 1:
        raise SystemExit(f"expected one dump of the worker in {directory}, found {dumps}")
    return float(instructions(dumps[0]))


def _count(kind: str, requests: int, directory: Path) -> float:
    if kind in KINDS:
        return embedded_count(kind, requests, directory, PATH)
    return worker_count(kind, requests, directory)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--workers", default="sync,gthread,uwsgi,mod_wsgi-daemon")
    parser.add_argument("--requests", default="200,600")
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    low, high = (int(n) for n in args.requests.split(","))
    anchor = run_cost(CostOptions(rungs=("string",), repeats=3))
    print(f"the string rung in-process: {anchor.requests[0].median:,.0f} instructions/request")
    with tempfile.TemporaryDirectory(prefix="layerbench-server-cost-") as name:
        Path(name).chmod(0o755)  # Apache's children (another account) read below it
        for kind in args.workers.split(","):
            figures = []
            for repeat in range(args.repeats):
                base = Path(name) / f"{kind}-{repeat}"
                few = _count(kind, low, base / "low")
                many = _count(kind, high, base / "high")
                figures.append((many - few) / (high - low))
                print(f"  {kind} repeat {repeat + 1}: {few:,.0f} for {low}, {many:,.0f} for "
                      f"{high}: {figures[-1]:,.0f} per request", flush=True)  # fmt: skip
            mean = statistics.fmean(figures)
            cv = 100 * statistics.stdev(figures) / mean if len(figures) > 1 else 0.0
            server = kind if kind in KINDS else f"gunicorn {kind}"
            print(f"{server}: {statistics.median(figures):,.0f} instructions/request "
                  f"(CV {cv:.2f} % over {len(figures)})", flush=True)  # fmt: skip


if __name__ == "__main__":
    main()
