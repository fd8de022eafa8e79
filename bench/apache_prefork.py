"""Apache's prefork MPM against event at c=1, in one run: mod_wsgi embedded and mod_python's WSGI
handler on the string rung under each MPM, and Apache's static file (the anchor) under each.

    .venv/bin/python bench/apache_prefork.py [--duration 3] [--repeats 3] [--concurrency 1]

``layerbench matrix`` does the work (the columns interleaved over the repeats, the lab's CPU
layout, its warm-up of one second); this prints each column's median req/s, its share of
apache-static's under the same MPM and of the same adapter under event, its server CPU per
1,000 requests, and how many of the server's processes used CPU in the median trial (one
child serves a c=1 connection: more is children importing the application meanwhile, the
anomaly this bench was made for). The figures of a loaded machine say little alone, the ratios
of one run more.
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

ADAPTERS = ("mod_wsgi-embedded", "mod_python-wsgi")
ANCHOR = "apache-static"
MPMS = ("prefork", "event")
# A process that used this much CPU in a trial did work (a child idle in accept uses none).
BUSY_CPU_S = 0.05


def label(server: str, mpm: str) -> str:
    return f"{server}:apache.mpm={mpm}"


def run_matrix(args: argparse.Namespace, results: Path) -> dict[str, Any]:
    columns = [label(server, mpm) for mpm in MPMS for server in (*ADAPTERS, ANCHOR)]
    command = [
        sys.executable, "-m", "layerbench.cli", "matrix", "--servers", ",".join(columns),
        "--rung", "string", "--concurrency", str(args.concurrency), "-d", str(args.duration),
        "--repeats", str(args.repeats), "--json", str(results),
    ]  # fmt: skip
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
    document: dict[str, Any] = json.loads(results.read_text())
    return document


def median_trial(cell: dict[str, Any]) -> dict[str, Any]:
    trials = sorted(cell["repeats"], key=lambda trial: trial["requests_per_s"])
    trial: dict[str, Any] = trials[len(trials) // 2]
    return trial


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--duration", type=float, default=3.0)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--concurrency", type=int, default=1)
    args = parser.parse_args()
    load_start = os.getloadavg()[0]
    with tempfile.TemporaryDirectory(prefix="layerbench-bench-") as root:
        document = run_matrix(args, Path(root) / "matrix.json")
    load_end = os.getloadavg()[0]
    cells = {cell["column"]: cell for cell in document["cells"]}
    rates = {
        column: statistics.median(trial["requests_per_s"] for trial in cell["repeats"])
        for column, cell in cells.items()
    }
    print(
        f"string rung, c={args.concurrency}, keep-alive, {args.duration:g} s x {args.repeats}; "
        f"load average {load_start:.2f} at the start, {load_end:.2f} at the end; medians"
    )
    print(
        f"{'column':<36}{'req/s':>9}{'x static':>10}{'x event':>9}"
        f"{'CPU s/1k':>10}{'busy procs':>12}"
    )
    for mpm in MPMS:
        for server in (*ADAPTERS, ANCHOR):
            column = label(server, mpm)
            cell = cells[column]
            server_role = median_trial(cell)["roles"]["server"]
            busy = sum(1 for p in server_role["processes"] if p["cpu_s"] >= BUSY_CPU_S)
            static = rates[column] / rates[label(ANCHOR, mpm)]
            event = rates[column] / rates[label(server, "event")]
            print(
                f"{column:<36}{rates[column]:>9,.0f}{static:>10.3f}{event:>9.3f}"
                f"{server_role['cpu_s_per_1000_requests']:>10.3f}{busy:>12}"
            )
    for column, cell in cells.items():
        if cell["status"] != "ok" or cell["errors"]:
            print(f"  {column}: {cell['status']} {cell['message'] or ''} {cell['errors']}")


if __name__ == "__main__":
    main()
