"""Load from one and from several client hosts (network namespaces) against one nginx, in one run.

    .venv/bin/python bench/hosts_clients.py [--clients 2] [--connections 32] [--duration 5]

The anchor: one load generator against nginx (one worker) on loopback, no namespaces. Then the
same nginx setup on a front host of the lab's network, loaded from one client host, then from
N client hosts at once (the connections shared among them), their results merged exactly (the
histograms added, lab/load_from_hosts.py). Each line: req/s, its ratio to the anchor, and the
merged p50/p99/p99.9. On a 2-core machine the namespaces add isolation and a bridge to cross,
not CPU: these are the cost of the veth/bridge path and of several clients sharing the cores,
not a scaling figure.
"""

import argparse
import tempfile
from pathlib import Path

from layerbench.hosts.lab_network import lab_network
from layerbench.hosts.topology import topology_from
from layerbench.lab.host_nginx import NginxOnHost
from layerbench.lab.load_from_hosts import load_from_clients
from layerbench.lab.loadgen import LoadSpec, find_load_generator, run_load
from layerbench.proc.ports import free_port
from layerbench.results.load_result import LoadResult
from layerbench.servers.nginx import NginxStatic

FILES = {"hello.txt": b"Hello World!\n"}


def line(label: str, result: LoadResult, anchor: float) -> str:
    latency = result.latency_us
    return (
        f"{label:<28} {result.requests_per_s:>9.0f} req/s  x{result.requests_per_s / anchor:5.2f}"
        f"  p50 {latency['p50'] / 1000:6.2f} ms  p99 {latency['p99'] / 1000:6.2f} ms"
        f"  p99.9 {latency['p99_9'] / 1000:6.2f} ms  ({result.requests_completed} requests)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=2)
    parser.add_argument("--connections", type=int, default=32)
    parser.add_argument("--duration", type=float, default=5.0)
    args = parser.parse_args()
    binary = find_load_generator()
    spec = LoadSpec(concurrency=args.connections, duration_s=args.duration, warmup_s=1.0)
    each = LoadSpec(
        concurrency=max(args.connections // args.clients, 1),
        duration_s=args.duration,
        warmup_s=1.0,
    )
    with tempfile.TemporaryDirectory(prefix="layerbench-bench-") as directory:
        workdir = Path(directory)
        workdir.chmod(0o711)
        with NginxStatic(workdir / "nginx-loopback", free_port(), FILES) as nginx:
            print(f"nginx {nginx.version()}, one worker; c={args.connections} in all, keep-alive")
            url = nginx.base_url + "/hello.txt"
            anchor = run_load(binary=binary, url=url, spec=spec, workdir=workdir, label="anchor")
        print(line("loopback, one client", anchor, anchor.requests_per_s))
        for clients in (1, args.clients):
            hosts = {f"client{n}": {"roles": ["client"]} for n in range(1, clients + 1)}
            topology = topology_from({"hosts": {**hosts, "front": {"roles": ["front"]}}}, "bench")
            with lab_network(topology) as network:
                front = topology.host("front")
                with NginxOnHost(network, front, workdir / f"nginx-{clients}", FILES) as nginx:
                    merged, _ = load_from_clients(
                        network,
                        binary=binary,
                        url=nginx.base_url + "/hello.txt",
                        spec=spec if clients == 1 else each,
                        workdir=workdir,
                    )
            label = f"{clients} client host{'s' if clients > 1 else ''}, bridge"
            print(line(label, merged, anchor.requests_per_s))


if __name__ == "__main__":
    main()
