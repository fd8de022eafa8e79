"""What HTTPS costs the client: layerbench-load against wrk on the same nginx over TLS.

    .venv/bin/python bench/tls_cost.py [--duration 5] [--pairs 3] [--connections 50]

nginx (one worker, TLS 1.3 with a P-256 certificate, a shared session cache) serves a
13-byte file, pinned to the first CPU; each client is pinned to the last CPU and run in turn,
wrk then ours, PAIRS times, in two modes: keep-alive (the cost of the records) and a new
connection a request (the cost of handshakes; ours resumes sessions, wrk does not). For each
run: requests per second and the client's CPU-seconds per 100,000 requests (user + system,
from wait4). Prints every run, the medians, and ours as a ratio to wrk (the anchor).
"""

import argparse
import json
import os
import re
import statistics
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from measured_client import run_measured

from layerbench.lab.loadgen import find_load_generator
from layerbench.proc.binaries import find_program
from layerbench.proc.ports import free_port
from layerbench.servers.certificates import self_signed
from layerbench.servers.nginx import NginxStatic, TlsListener

MODES = ("keep-alive", "new connection a request")


@dataclass(frozen=True)
class Run:
    tool: str
    mode: str
    requests: int
    requests_per_s: float
    cpu_s: float
    failures: int

    @property
    def cpu_s_per_100k(self) -> float:
        return self.cpu_s / max(self.requests, 1) * 100_000


def run_wrk(wrk: Path, url: str, mode: str, args: argparse.Namespace, cpus: frozenset[int]) -> Run:
    argv = [str(wrk), "-t1", f"-c{args.connections}", f"-d{args.duration}s", url]
    if mode != MODES[0]:
        argv[1:1] = ["-H", "Connection: close"]
    measured = run_measured(argv, cpus, timeout_s=args.duration + 60)
    done = re.search(r"(\d+) requests in", measured.output)
    rate = re.search(r"Requests/sec:\s+([\d.]+)", measured.output)
    if not done or not rate:
        sys.exit(f"bench: could not read wrk's output:\n{measured.output}")
    errors = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)",
                       measured.output)  # fmt: skip
    failures = sum(int(n) for n in errors.groups()) if errors else 0
    return Run("wrk", mode, int(done.group(1)), float(rate.group(1)), measured.cpu_s, failures)


def run_ours(
    binary: Path, url: str, mode: str, args: argparse.Namespace, cpus: frozenset[int]
) -> Run:
    argv = [str(binary), "-q", "--insecure", "-c", str(args.connections), "-t",
            str(args.duration), "--json", "-", url]  # fmt: skip
    if mode == MODES[0]:
        argv.insert(1, "-k")
    measured = run_measured(argv, cpus, timeout_s=args.duration + 60)
    try:
        document = json.loads(measured.output)
    except json.JSONDecodeError:
        sys.exit(f"bench: layerbench-load failed:\n{measured.output}")
    handshakes = document["tls"]
    print(f"        (ours: {handshakes['handshakes_full']} full, "
          f"{handshakes['handshakes_resumed']} resumed handshakes)")  # fmt: skip
    return Run("ours", mode, document["requests_completed"], document["requests_per_s"],
               measured.cpu_s, document["requests_failed"])  # fmt: skip


def describe(run: Run) -> str:
    return (
        f"{run.requests_per_s:>10,.0f} req/s  {run.cpu_s_per_100k:6.3f} CPU-s/100k req"
        f"  {run.failures} failed"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--duration", type=int, default=5)
    parser.add_argument("--pairs", type=int, default=3)
    parser.add_argument("--connections", type=int, default=50)
    args = parser.parse_args()
    cpus = sorted(os.sched_getaffinity(0))
    server_cpus, client_cpus = frozenset(cpus[:1]), frozenset(cpus[-1:])
    wrk = find_program("wrk", "wrk")
    ours = find_load_generator()
    runs: list[Run] = []
    with tempfile.TemporaryDirectory(prefix="layerbench-bench-") as directory:
        workdir = Path(directory)
        workdir.chmod(0o711)
        certificate = self_signed(workdir)
        tls = TlsListener(free_port(), certificate.certificate, certificate.key)
        nginx = NginxStatic(workdir / "nginx", free_port(), {"hello.txt": b"Hello World!\n"},
                            cpus=server_cpus, tls=tls)  # fmt: skip
        with nginx:
            url = nginx.tls_base_url + "/hello.txt"
            print(
                f"nginx {nginx.version()} over TLS on CPU {min(server_cpus)}, clients on CPU "
                f"{min(client_cpus)}, c={args.connections}, {args.duration} s a run, "
                f"{args.pairs} pairs a mode"
            )
            for mode in MODES:
                print(mode)
                for _ in range(args.pairs):
                    for run in (
                        run_wrk(wrk, url, mode, args, client_cpus),
                        run_ours(ours, url, mode, args, client_cpus),
                    ):
                        runs.append(run)
                        print(f"  {run.tool:<5} {describe(run)}")
    for mode in MODES:
        medians = {}
        for tool in ("wrk", "ours"):
            mine = [r for r in runs if (r.tool, r.mode) == (tool, mode)]
            medians[tool] = (
                statistics.median(r.requests_per_s for r in mine),
                statistics.median(r.cpu_s_per_100k for r in mine),
            )
        print(
            f"{mode}: ours / wrk: req/s x{medians['ours'][0] / medians['wrk'][0]:.3f}, "
            f"CPU per request x{medians['ours'][1] / medians['wrk'][1]:.3f} "
            f"(medians: wrk {medians['wrk'][0]:,.0f} req/s {medians['wrk'][1]:.3f} CPU-s/100k, "
            f"ours {medians['ours'][0]:,.0f} req/s {medians['ours'][1]:.3f})"
        )


if __name__ == "__main__":
    main()
