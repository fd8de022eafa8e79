"""layerbench-load at its limits, each figure against an anchor measured in the same run.

    .venv/bin/python bench/loadgen_limits.py [--close-duration 60] [--big-n 10000000]

nginx (one worker) serves a 13-byte file pinned to the first CPU; the clients run pinned to the
last CPU, one at a time:

1. c=10000 with keep-alive: ours with -n 200000 (failures must be 0) against wrk -t1 -c10000
   for as long as ours took (anchor: wrk's req/s).
2. Without keep-alive for --close-duration seconds: ours spreading its connections over
   127.0.0.1-127.0.0.255 against wrk -t1 sending "Connection: close" (anchor: wrk's
   connections per second); connect failures of both.
3. Memory: ours' peak RSS at -n --big-n against -n 100000 (anchor: the small run), wrk's for
   context.
"""

import argparse
import json
import os
import re
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))

from measured_client import Measured, run_measured

from layerbench.lab.loadgen import find_load_generator
from layerbench.proc.binaries import find_program
from layerbench.proc.ports import free_port
from layerbench.servers.nginx import NginxStatic

SMALL_N = 100_000


def ours(
    binary: Path, args: list[str], url: str, cpus: frozenset[int], timeout_s: float
) -> tuple[Measured, dict[str, Any]]:
    measured = run_measured([str(binary), "-q", "--json", "-", *args, url], cpus, timeout_s)
    try:
        document: dict[str, Any] = json.loads(measured.output[measured.output.index("{") :])
    except ValueError:
        sys.exit(f"bench: layerbench-load printed no JSON:\n{measured.output}")
    return measured, document


def wrk(
    binary: Path, args: list[str], url: str, cpus: frozenset[int], timeout_s: float
) -> tuple[Measured, float, int]:
    """wrk's run, its req/s and its connect errors."""
    measured = run_measured([str(binary), "-t1", *args, url], cpus, timeout_s)
    rate = re.search(r"Requests/sec:\s+([\d.]+)", measured.output)
    if not rate:
        sys.exit(f"bench: could not read wrk's output:\n{measured.output}")
    connect = re.search(r"Socket errors: connect (\d+)", measured.output)
    return measured, float(rate.group(1)), int(connect.group(1)) if connect else 0


def failures(document: dict[str, Any]) -> str:
    kinds = ", ".join(f"{k} {v}" for k, v in document["errors_by_kind"].items()) or "none"
    return f"{document['requests_failed']} failed ({kinds})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--close-duration", type=int, default=60)
    parser.add_argument("--big-n", type=int, default=10_000_000)
    args = parser.parse_args()
    cpus = sorted(os.sched_getaffinity(0))
    server_cpus, client_cpus = frozenset(cpus[:1]), frozenset(cpus[-1:])
    wrk_binary = find_program("wrk", "wrk")
    load = find_load_generator()
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
                f"clients on CPU {min(client_cpus)}"
            )

            print("\n1. c=10000, keep-alive")
            _, doc = ours(load, ["-k", "-c", "10000", "-n", "200000"], url, client_cpus, 300)
            seconds = max(1, round(doc["elapsed_s"]))
            _, wrk_rate, wrk_connect = wrk(
                wrk_binary, ["-c10000", f"-d{seconds}s"], url, client_cpus, 300
            )
            print(
                f"  ours  {doc['requests_completed']:,} requests, {failures(doc)}, "
                f"{doc['requests_per_s']:,.0f} req/s"
            )
            print(f"  wrk   {wrk_rate:,.0f} req/s over {seconds} s, {wrk_connect} connect errors")
            print(f"  ours / wrk: req/s x{doc['requests_per_s'] / wrk_rate:.3f}")

            print(f"\n2. no keep-alive, c=50, {args.close_duration} s")
            limit = args.close_duration * 3 + 60
            _, doc = ours(
                load,
                [
                    "-c",
                    "50",
                    "-t",
                    str(args.close_duration),
                    "--source-addresses",
                    "127.0.0.1-127.0.0.255",
                ],
                url,
                client_cpus,
                limit,
            )
            _, wrk_rate, wrk_connect = wrk(
                wrk_binary,
                ["-c50", f"-d{args.close_duration}s", "-H", "Connection: close"],
                url,
                client_cpus,
                limit,
            )
            print(
                f"  ours  {doc['requests_per_s']:,.0f} connections/s, "
                f"{doc['failures']['connect']} connect failures, {failures(doc)}"
            )
            print(f"  wrk   {wrk_rate:,.0f} connections/s, {wrk_connect} connect errors")
            print(f"  ours / wrk: connections/s x{doc['requests_per_s'] / wrk_rate:.3f}")

            print(f"\n3. memory, keep-alive, c=50: -n {SMALL_N:,} against -n {args.big_n:,}")
            small, small_doc = ours(
                load, ["-k", "-c", "50", "-n", str(SMALL_N)], url, client_cpus, 300
            )
            big, big_doc = ours(
                load,
                ["-k", "-c", "50", "-n", str(args.big_n)],
                url,
                client_cpus,
                args.big_n / 10_000 + 120,
            )
            wrk_run, _, _ = wrk(wrk_binary, ["-c50", "-d10s"], url, client_cpus, 120)
            for run, doc in ((small, small_doc), (big, big_doc)):
                count = doc["requests_completed"]
                print(
                    f"  ours -n {count:>12,}  peak RSS {run.max_rss_kib:>7,} KiB  {failures(doc)}"
                )
            print(f"  wrk  -d 10 s            peak RSS {wrk_run.max_rss_kib:>7,} KiB")
            print(f"  big / small: RSS x{big.max_rss_kib / small.max_rss_kib:.3f}")


if __name__ == "__main__":
    main()
