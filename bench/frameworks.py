"""What each framework costs over layerbench's bare WSGI application, rung by rung, in one run.

    .venv/bin/python bench/frameworks.py [--apps bare,django,flask,pyramid,zope]
                                         [--rungs string,template,orm,page,cached-page,write]
                                         [-d 3] [--repeats 3] [-c 10] [--server gunicorn]

It runs ``layerbench ladder --apps …`` on the default server (gunicorn unless ``--server``):
every application on a server of its own, their rungs interleaved over the repeats, so that a
drift of the machine spreads over all of them alike. Per rung and application it prints the
median req/s, its ratio to bare's with the bootstrap 95 % interval of that ratio (each one's
trials resampled on their own), and the server's CPU per request over bare's (the framework's
own price). Ratios, never absolute figures: both sides are measured in the same run.
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from layerbench.ladder.ladder_result import LadderResult, RungResult
from layerbench.render.text_table import format_table
from layerbench.report.stored_result import read_result
from layerbench.roles import SERVER_ROLE
from layerbench.stats.comparison import compare_rates

BARE = "bare"
LAYERBENCH = Path(sys.executable).parent / "layerbench"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--apps", default="bare,django,flask,pyramid,zope")
    parser.add_argument("--rungs", default="string,template,orm,page,cached-page,write")
    parser.add_argument("-d", "--duration", default="3")
    parser.add_argument("--repeats", default="3")
    parser.add_argument("-c", "--concurrency", default="10")
    parser.add_argument("--server", default=None)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-frameworks-") as directory:
        json_path = Path(directory) / "ladder.json"
        argv = [str(LAYERBENCH), "ladder", "--apps", args.apps, "--rungs", args.rungs]
        argv += ["-d", args.duration, "--repeats", args.repeats, "-c", args.concurrency]
        argv += ["--json", str(json_path)] + (["--server", args.server] if args.server else [])
        environment = {**os.environ, "LAYERBENCH_RESULTS_DB": str(Path(directory) / "db")}
        started = time.monotonic()
        print(" ".join(argv[1:]), file=sys.stderr)
        done = subprocess.run(argv, env=environment, stdout=subprocess.DEVNULL, check=False)
        if not json_path.exists():
            print(f"the ladder failed (exit {done.returncode})", file=sys.stderr)
            return 1
        result = read_result(json.loads(json_path.read_text()))
    assert isinstance(result, LadderResult)
    print(f"{args.apps} on {result.options.get('server')}, c={args.concurrency}, ", end="")
    print(f"{args.repeats} interleaved passes of {args.duration} s per rung, ", end="")
    print(f"{time.monotonic() - started:.0f} s in all; load average {_load_average()}")
    print(format_costs(result))
    return 0 if done.returncode == 0 else 1


def format_costs(result: LadderResult) -> str:
    by_place = {(rung.app, rung.rung): rung for rung in result.rungs}
    header = ["rung", "app", "req/s", "vs bare", "95 %", "CPU/req vs bare"]
    rows = [header]
    for rung_name in dict.fromkeys(rung.rung for rung in result.rungs):
        bare = by_place.get((BARE, rung_name))
        for app in result.apps:
            rung = by_place.get((app, rung_name))
            rows.append([rung_name, app, *_figures(rung, bare)])
    return "\n".join(format_table(rows, 2, colour=False))


def _figures(rung: RungResult | None, bare: RungResult | None) -> list[str]:
    if rung is None or rung.load is None:
        return [rung.status.value if rung else "", "", "", ""]
    rate = f"{rung.load.requests_per_s:,.0f}"
    if bare is None or bare.load is None:
        return [rate, "", "", ""]
    ours = [t.load.requests_per_s for t in rung.trials]
    theirs = [t.load.requests_per_s for t in bare.trials]
    compared = compare_rates(rung.rung, theirs, ours)
    interval = ""
    if compared.ci_low is not None and compared.ci_high is not None:
        interval = f"[{compared.ci_low:.2f}, {compared.ci_high:.2f}]"
    cpu, bare_cpu = _cpu_per_request(rung), _cpu_per_request(bare)
    cost = f"{cpu / bare_cpu:.1f}x" if cpu is not None and bare_cpu else ""
    return [rate, f"{compared.ratio:.2f}", interval, cost]


def _cpu_per_request(rung: RungResult) -> float | None:
    server = rung.usage.roles.get(SERVER_ROLE) if rung.usage else None
    if server is None or rung.load is None or not rung.load.requests_completed:
        return None
    return server.cpu_s / rung.load.requests_completed


def _load_average() -> str:
    return " ".join(f"{value:.2f}" for value in os.getloadavg())


if __name__ == "__main__":
    sys.exit(main())
