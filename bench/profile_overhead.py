"""What `ladder --profile` costs the measured server: the page rung's req/s and its server's
CPU per request with py-spy sampling its workers and without, interleaved in one run.

    .venv/bin/python bench/profile_overhead.py [--duration 5] [--repeats 5] [--rate 100]

The bare site's page rung under gunicorn (the ladder's defaults: 2 sync workers on the first
CPU, the load generator and py-spy on the last, keep-alive, c=10, one second of warm-up) is
measured ``--repeats`` times in pairs, without then with the profile, through the ladder's own
trial (:class:`layerbench.lab.trial.TrialRunner`, the one ``--profile`` uses); the order within
a pair alternates, so that a drift of the machine falls on both alike. It prints each pair, the
medians, and two paired ratios (profiled over not) with their 95 % intervals and verdicts
(:func:`layerbench.stats.comparison.compare_paired`): req/s, whose overhead is one minus the
ratio, and the server's CPU per request (its processes' CPU over the trial, from ``/proc``, over
the requests it completed), whose overhead is the ratio minus one. On a machine whose other
processes take the server's CPU from it, req/s moves with them and the CPU per request far
less: the second is the one that can decide.
"""

import argparse
import statistics
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

from layerbench.lab.app_under_test import app_environment
from layerbench.lab.cpu_layout import plan_cpu_layout
from layerbench.lab.loadgen import LoadSpec, find_load_generator
from layerbench.lab.trial import TrialRunner
from layerbench.lab.verify import verify_rung
from layerbench.proc.ports import free_port
from layerbench.profile.pyspy_record import PySpyRecorder, check_profiling
from layerbench.roles import SERVER_ROLE
from layerbench.rungs.applications import APPLICATIONS
from layerbench.rungs.definitions import ladder_of
from layerbench.servers.adapters import ServerPlan, find_adapter
from layerbench.sites import prepare_app_data
from layerbench.stats.comparison import compare_paired

RUNG = "page"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--duration", type=float, default=5.0)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--rate", type=int, default=100, help="samples per second per worker")
    args = parser.parse_args()
    py_spy = check_profiling()
    layout = plan_cpu_layout()
    rung = next(rung for rung in ladder_of(False) if rung.name == RUNG)
    spec = LoadSpec(concurrency=10, duration_s=args.duration, warmup_s=1.0, keep_alive=True)
    plain: list[float] = []
    profiled: list[float] = []
    # The server's CPU per request (µs), which the machine's other load moves far less.
    plain_cpu: list[float] = []
    profiled_cpu: list[float] = []
    with tempfile.TemporaryDirectory(prefix="layerbench-bench-") as directory:
        workdir = Path(directory)
        workdir.chmod(0o711)
        data = prepare_app_data(workdir / "data")
        plan = ServerPlan(
            workdir=workdir / "app",
            port=free_port(),
            db_path=data.db_path,
            static_files={},
            cpus=layout.server_cpus,
            app_environment={**data.environment, **app_environment(APPLICATIONS["bare"])},
        )
        trials = TrialRunner(find_load_generator(), workdir, layout.client_cpus)
        recorder = PySpyRecorder(py_spy, workdir, rate_hz=args.rate, cpus=layout.client_cpus)
        with find_adapter("gunicorn").build(plan) as server:
            verify_rung(server.base_url, rung)
            url = server.base_url + rung.path
            for number in range(args.repeats):
                order = (False, True) if number % 2 == 0 else (True, False)
                measured: dict[bool, tuple[float, float]] = {}
                for with_profile in order:
                    label = f"{'profiled' if with_profile else 'plain'}-{number}"
                    load, usage = trials.run(
                        server, url, spec, label, profiler=recorder if with_profile else None
                    )
                    served = usage.roles.get(SERVER_ROLE)
                    cpu_s = served.cpu_s if served is not None else 0.0
                    per_request = 1e6 * cpu_s / max(load.requests_completed, 1)
                    measured[with_profile] = (load.requests_per_s, per_request)
                plain.append(measured[False][0])
                profiled.append(measured[True][0])
                plain_cpu.append(measured[False][1])
                profiled_cpu.append(measured[True][1])
                samples = sum(recorder.stacks.values())
                print(
                    f"pair {number + 1}: without {measured[False][0]:,.0f} req/s "
                    f"{measured[False][1]:,.0f} µs/req, with {measured[True][0]:,.0f} req/s "
                    f"{measured[True][1]:,.0f} µs/req ({samples:,} samples)",
                    file=sys.stderr,
                    flush=True,
                )
    print(f"page rung, {args.repeats} pairs of {args.duration:g} s, py-spy at {args.rate} Hz")
    print(
        f"  without --profile: median {statistics.median(plain):,.0f} req/s, "
        f"{statistics.median(plain_cpu):,.0f} µs of server CPU per request"
    )
    print(
        f"  with --profile:    median {statistics.median(profiled):,.0f} req/s, "
        f"{statistics.median(profiled_cpu):,.0f} µs of server CPU per request"
    )
    _ratio("req/s, with / without", plain, profiled, lambda ratio: 1 - ratio)
    _ratio("CPU per request, with / without", plain_cpu, profiled_cpu, lambda ratio: ratio - 1)


def _ratio(
    what: str, plain: list[float], profiled: list[float], overhead: Callable[[float], float]
) -> None:
    compared = compare_paired(RUNG, plain, profiled)
    if compared is None:
        sys.exit("bench: no pair was measured")
    interval = ""
    if compared.ci_low is not None and compared.ci_high is not None:
        interval = f"95 % interval {compared.ci_low:.3f} to {compared.ci_high:.3f}; "
    print(
        f"  {what}: {compared.ratio:.3f} ({interval}{compared.verdict}); "
        f"overhead {100 * overhead(compared.ratio):.1f} %"
    )


if __name__ == "__main__":
    main()
