"""The site on a cluster (issue 26), the full experiment: a client host, a front host (nginx
least_conn), N app hosts, three db hosts (Galera node i on db host i, app host i on node i) and
two cache hosts (the shared page cache, a memcached pool), every host a network namespace;
writers 1, 3 and 6 on the three nodes through the site's repository, the most also through node
1 alone (the anchor of the throughput ratios), the same counts through the site's HTTP API
(nginx's front, every app host), then read-your-write across hosts with the page cache shared
and per host, Galera's reads causal and not. Prints ``layerbench cluster``'s tables, the
3-nodes/1-node ratio and the HTTP/repository ratio.

    .venv/bin/python bench/cluster_site.py [--app-hosts 3] [--writers 1,3,6] [--writes-each 40]
                                           [--duration 20]

On a 2-core machine the namespaces add isolation (their own addresses, connections over a
bridge), not CPU: every host shares the same two cores, so throughput figures say what
replication and certification cost here, not what N machines would give.
"""

import argparse
import os
import sys

from layerbench.cluster.cluster_plan import ClusterOptions, plan_cluster
from layerbench.cluster.cluster_result import HTTP, REPOSITORY
from layerbench.cluster.cluster_run import empty_result, run_cluster
from layerbench.cluster.cluster_table import render
from layerbench.hosts.topology import topology_from


def parse() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--app-hosts", type=int, default=3)
    parser.add_argument("--writers", default="1,3,6")
    parser.add_argument("--writes-each", type=int, default=40)
    parser.add_argument("--duration", type=float, default=20.0)
    return parser.parse_args()


def topology_document(app_hosts: int) -> dict[str, object]:
    hosts: dict[str, object] = {"client1": {"roles": ["client"]}, "front": {"roles": ["front"]}}
    hosts |= {f"app{n}": {"roles": ["app"]} for n in range(1, app_hosts + 1)}
    hosts |= {f"db{n}": {"roles": ["db"]} for n in range(1, 4)}
    hosts |= {f"cache{n}": {"roles": ["cache"]} for n in range(1, 3)}
    return {"hosts": hosts}


def main() -> None:
    args = parse()
    if os.geteuid() != 0:
        sys.exit("the hosts are network namespaces: run it as root")
    options = ClusterOptions(
        writers=tuple(int(count) for count in args.writers.split(",")),
        writes_each=args.writes_each,
        duration_s=args.duration,
    )
    options.check()
    plan = plan_cluster(topology_from(topology_document(args.app_hosts), "bench"), options, "bench")
    result = empty_result(plan)
    run_cluster(plan, options, result, lambda line: print(line, file=sys.stderr, flush=True))
    print("\n".join(render(result)))
    most = max(options.writers)
    rows = {(row.via, row.writers): row for row in result.writers}
    three = rows[REPOSITORY, most]
    if result.one_node is not None:
        ratio = three.writes_per_s / result.one_node.writes_per_s
        print(f"{most} writers: 3 nodes / node 1 alone = {ratio:.2f}x writes per second")
    if (HTTP, most) in rows:
        ratio = rows[HTTP, most].writes_per_s / three.writes_per_s
        through = "through HTTP / through the repository"
        print(f"{most} writers: {through} = {ratio:.2f}x writes per second")


if __name__ == "__main__":
    main()
