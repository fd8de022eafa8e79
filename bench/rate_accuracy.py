"""How exactly `--rate` keeps its rate, against nginx, in one run.

    .venv/bin/python bench/rate_accuracy.py [--rates 10000,50000] [--duration 10]
        [--connections 100]

nginx (one worker) serves a 13-byte file pinned to the first CPU; the client is pinned to the
last. First a closed-loop run measures what this nginx can serve at all (the anchor: a rate
above it cannot be kept, by any client). Then each rate: target, achieved, achieved / target,
requests due but never sent, late starts, and the latency percentiles from the due time
(corrected) and from the send (uncorrected).
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from layerbench.lab.loadgen import find_load_generator
from layerbench.proc.ports import free_port
from layerbench.servers.nginx import NginxStatic


def load(binary: Path, cpu: int, args: list[str]) -> dict[str, Any]:
    argv = ["taskset", "-c", str(cpu), str(binary), "-q", "--json", "-", *args]
    done = subprocess.run(argv, capture_output=True, text=True, timeout=900, check=False)
    if done.returncode != 0:
        sys.exit(f"bench: layerbench-load failed: {done.stderr.strip()}")
    document: dict[str, Any] = json.loads(done.stdout)
    return document


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rates", default="10000,50000")
    parser.add_argument("--duration", type=int, default=10)
    parser.add_argument("--connections", type=int, default=100)
    args = parser.parse_args()
    cpus = sorted(os.sched_getaffinity(0))
    server_cpu, client_cpu = cpus[0], cpus[-1]
    binary = find_load_generator()
    common = ["-k", "-c", str(args.connections), "--warmup", "1", "-t", str(args.duration)]
    with tempfile.TemporaryDirectory(prefix="layerbench-bench-") as directory:
        workdir = Path(directory)
        workdir.chmod(0o711)
        nginx = NginxStatic(
            workdir / "nginx",
            free_port(),
            {"hello.txt": b"Hello World!\n"},
            cpus=frozenset({server_cpu}),
        )
        with nginx:
            url = nginx.base_url + "/hello.txt"
            print(
                f"nginx {nginx.version()} on CPU {server_cpu}, client on CPU {client_cpu}, "
                f"c={args.connections}, keep-alive, {args.duration} s per run"
            )
            capacity = load(binary, client_cpu, [*common, url])["requests_per_s"]
            print(f"closed loop (the server's capacity, the anchor): {capacity:,.0f} req/s")
            for rate in (float(text) for text in args.rates.split(",")):
                doc = load(binary, client_cpu, [*common, "--rate", f"{rate:g}", url])
                r = doc["rate"]
                corrected, sent = doc["latency_us"], doc["latency_uncorrected_us"]
                print(
                    f"--rate {rate:>8,.0f}: achieved {r['achieved_per_s']:>10,.1f} "
                    f"(x{r['achieved_per_s'] / rate:.4f}; x{rate / capacity:.2f} of capacity), "
                    f"unsent {r['unsent_requests']}, late starts {r['late_starts']} "
                    f"(worst {r['max_lateness_us']} us), failed {doc['requests_failed']}\n"
                    f"{'':17}latency p50/p99/p99.9 us: from due {corrected['p50']}/"
                    f"{corrected['p99']}/{corrected['p99_9']}, from send {sent['p50']}/"
                    f"{sent['p99']}/{sent['p99_9']}"
                )


if __name__ == "__main__":
    main()
