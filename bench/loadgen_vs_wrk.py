"""layerbench-load against wrk, on the same nginx, interleaved, in one run.

    .venv/bin/python bench/loadgen_vs_wrk.py [--duration 10] [--pairs 3] [--connections 50]
        [--batch-wait 250]

nginx (one worker) serves a 13-byte file pinned to the first CPU; each client is pinned to the
last CPU and run in turn, wrk and ours with each I/O engine (io_uring, epoll, and io_uring
whose waits gather responses for up to BATCH_WAIT microseconds), PAIRS times, the order
reversed every other round so that a drift of the machine's speed does not favour one.
For each run: requests per second, the client's CPU-seconds per 100,000 requests (user +
system, from the kernel's accounting of the reaped child), its voluntary context switches
per request (each one a sleep in epoll_wait or io_uring_enter and a wake-up: on a VM, much of
the client's cost) and the latency's median and 99th percentile as each client reports it
(the price of a batch wait shows there). Prints every run and the medians.

The ratios to wrk (the anchor) are taken within each round, whose runs follow each other within
seconds, and their median is printed with their range: this VM's speed moves by tens of per cent
from one minute to the next, which a ratio of the overall medians would mix in.
"""

import argparse
import json
import os
import re
import resource
import statistics
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from layerbench.lab.loadgen import find_load_generator
from layerbench.proc.binaries import find_program
from layerbench.proc.ports import free_port
from layerbench.proc.process import ManagedProcess
from layerbench.servers.nginx import NginxStatic


@dataclass(frozen=True)
class Run:
    tool: str
    requests: int
    requests_per_s: float
    cpu_s: float
    sleeps: int
    p50_us: float
    p99_us: float

    @property
    def cpu_s_per_100k(self) -> float:
        return self.cpu_s / self.requests * 100_000

    @property
    def sleeps_per_request(self) -> float:
        return self.sleeps / self.requests


def run_client(name: str, argv: list[str], workdir: Path, cpus: frozenset[int]) -> str:
    """Run one client to completion; return its output. Its CPU lands in RUSAGE_CHILDREN."""
    log = workdir / f"{name}.out"
    log.unlink(missing_ok=True)
    with ManagedProcess(name, argv, log_path=log, cpus=cpus) as process:
        process.wait(600)
    return log.read_text()


def cpu_of_children() -> tuple[float, int]:
    """CPU seconds and voluntary context switches of the reaped children so far."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime, usage.ru_nvcsw


UNIT_US = {"us": 1.0, "ms": 1_000.0, "s": 1_000_000.0}


def wrk_percentile_us(output: str, percent: int) -> float:
    """A line of wrk's --latency distribution ("     99%    1.20ms"), in microseconds."""
    match = re.search(rf"^\s+{percent}%\s+([\d.]+)(us|ms|s)$", output, re.MULTILINE)
    if not match:
        sys.exit(f"bench: no {percent}% line in wrk's output:\n{output}")
    return float(match.group(1)) * UNIT_US[match.group(2)]


def run_wrk(
    wrk: Path, url: str, args: argparse.Namespace, workdir: Path, cpus: frozenset[int]
) -> Run:
    cpu_before, sleeps_before = cpu_of_children()
    argv = [str(wrk), "-t1", f"-c{args.connections}", f"-d{args.duration}s", "--latency", url]
    output = run_client("wrk", argv, workdir, cpus)
    cpu, sleeps = cpu_of_children()
    match = re.search(r"(\d+) requests in", output)
    rate = re.search(r"Requests/sec:\s+([\d.]+)", output)
    if not match or not rate:
        sys.exit(f"bench: could not read wrk's output:\n{output}")
    return Run(
        "wrk",
        int(match.group(1)),
        float(rate.group(1)),
        cpu - cpu_before,
        sleeps - sleeps_before,
        wrk_percentile_us(output, 50),
        wrk_percentile_us(output, 99),
    )


@dataclass(frozen=True)
class Variant:
    """One way of running ours: its I/O engine and batch wait."""

    engine: str
    batch_wait_us: int | None = None

    @property
    def name(self) -> str:
        wait = f"+wait{self.batch_wait_us}" if self.batch_wait_us else ""
        return f"ours/{self.engine}{wait}"

    def arguments(self) -> list[str]:
        wait = ["--batch-wait", str(self.batch_wait_us)] if self.batch_wait_us else []
        return ["--io", self.engine, *wait]


def run_ours(
    binary: Path,
    url: str,
    args: argparse.Namespace,
    workdir: Path,
    cpus: frozenset[int],
    *,
    variant: Variant,
) -> Run:
    cpu_before, sleeps_before = cpu_of_children()
    json_path = workdir / "ours.json"
    argv = [str(binary), "-q", "-k", "-c", str(args.connections), "-t", str(args.duration)]
    argv += [*variant.arguments(), "--json", str(json_path), url]
    run_client("layerbench-load", argv, workdir, cpus)
    cpu, sleeps = cpu_of_children()
    document = json.loads(json_path.read_text())
    if document["client_io_engine"] != variant.engine:
        sys.exit(f"bench: asked for {variant.engine}, ran {document['client_io_engine']}")
    return Run(
        variant.name,
        document["requests_completed"],
        document["requests_per_s"],
        cpu - cpu_before,
        sleeps - sleeps_before,
        document["latency_us"]["p50"],
        document["latency_us"]["p99"],
    )


def describe(runs: list[Run]) -> str:
    """The runs' medians (one run's figures for a list of one)."""

    def median(figure: Callable[[Run], float]) -> float:
        return statistics.median(figure(run) for run in runs)

    return (
        f"{median(lambda r: r.requests_per_s):>10,.0f} req/s  "
        f"{median(lambda r: r.cpu_s_per_100k):6.3f} CPU-s/100k req  "
        f"{median(lambda r: r.sleeps_per_request):.3f} sleeps/req  "
        f"p50 {median(lambda r: r.p50_us):6,.0f} us  p99 {median(lambda r: r.p99_us):6,.0f} us"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--duration", type=int, default=10)
    parser.add_argument("--pairs", type=int, default=3)
    parser.add_argument("--connections", type=int, default=50)
    parser.add_argument("--batch-wait", type=int, default=250, metavar="MICROSECONDS")
    args = parser.parse_args()
    variants = {
        variant.name: variant
        for variant in (
            Variant("io_uring"),
            Variant("epoll"),
            Variant("io_uring", args.batch_wait),
        )
    }
    cpus = sorted(os.sched_getaffinity(0))
    server_cpus, client_cpus = frozenset(cpus[:1]), frozenset(cpus[-1:])
    wrk = find_program("wrk", "wrk")
    ours = find_load_generator()
    runs: list[Run] = []
    with tempfile.TemporaryDirectory(prefix="layerbench-bench-") as directory:
        workdir = Path(directory)
        workdir.chmod(0o711)
        nginx = NginxStatic(
            workdir / "nginx", free_port(), {"hello.txt": b"Hello World!\n"}, cpus=server_cpus
        )
        with nginx:
            url = nginx.base_url + "/hello.txt"
            print(
                f"nginx {nginx.version()} on CPU {min(server_cpus)}, "
                f"clients on CPU {min(client_cpus)}, c={args.connections}, keep-alive, "
                f"{args.duration} s per run, {args.pairs} pairs"
            )
            for round_number in range(args.pairs):
                order: list[str] = ["wrk", *variants]
                if round_number % 2:
                    order.reverse()
                for tool in order:
                    if tool == "wrk":
                        runs.append(run_wrk(wrk, url, args, workdir, client_cpus))
                    else:
                        variant = variants[tool]
                        runs.append(
                            run_ours(ours, url, args, workdir, client_cpus, variant=variant)
                        )
                    print_run(runs[-1])
    tools = ["wrk", *variants]
    for tool in tools:
        print(f"median {tool:<22} {describe([r for r in runs if r.tool == tool])}")
    wrk_runs = [r for r in runs if r.tool == "wrk"]
    for tool in tools[1:]:
        pairs = list(zip([r for r in runs if r.tool == tool], wrk_runs, strict=True))
        rate_ratios = [ours.requests_per_s / anchor.requests_per_s for ours, anchor in pairs]
        cpu_ratios = [ours.cpu_s_per_100k / anchor.cpu_s_per_100k for ours, anchor in pairs]
        print(f"{tool} / wrk, median of {len(pairs)} rounds: {ratio(rate_ratios)} req/s, ", end="")
        print(f"{ratio(cpu_ratios)} CPU per request")


def ratio(values: list[float]) -> str:
    return f"x{statistics.median(values):.3f} (x{min(values):.3f}-x{max(values):.3f})"


def print_run(run: Run) -> None:
    print(f"  {run.tool:<22} {describe([run])}")


if __name__ == "__main__":
    main()
