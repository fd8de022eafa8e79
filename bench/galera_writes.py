"""The site's writes on a 3-node Galera cluster against a lone MariaDB, in one run: writers
posting comments (every ``--edit-every``-th write an edit of the one shared video) through the
site's repository, through node 1 only and through all three nodes, and, as the anchor, the
same writers on a lone throwaway MariaDB with the same settings. Prints per writer count the
writes per second (median of the passes, and its ratio to the anchor's) and the transactions run
again after a certification conflict or a deadlock (error 1213), per 100 writes, and the writes
given up after the repository's bounded retries (all passes).

    .venv/bin/python bench/galera_writes.py [--writers 1,3,6,12] [--writes-each 40]
                                            [--edit-every 5] [--passes 3]

Every server runs on this machine: the three nodes share its CPUs and replicate over loopback,
so "3 nodes" measures what synchronous replication and certification cost, not what three
machines would add.
"""

import argparse
import statistics
from collections.abc import Callable

from layerbench.services.galera import GaleraService
from layerbench.services.mariadb import MariadbService
from layerbench_sites.datalayer import migrate
from layerbench_sites.datalayer.concurrent_writers import (
    ConcurrentWrites,
    create_video,
    run_writers,
)


def parse() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--writers", default="1,3,6,12")
    parser.add_argument("--writes-each", type=int, default=40)
    parser.add_argument("--edit-every", type=int, default=5)
    parser.add_argument("--passes", type=int, default=3)
    return parser.parse_args()


def main() -> None:
    args = parse()
    counts = [int(count) for count in args.writers.split(",")]
    with MariadbService() as lone, GaleraService() as cluster:
        nodes = list(cluster.urls)
        migrate.upgrade(lone.url)
        migrate.upgrade(nodes[0])
        setups: dict[str, list[str]] = {
            "lone MariaDB": [lone.url],
            "Galera, node 1": nodes[:1],
            "Galera, 3 nodes": nodes,
        }
        print(
            f"{'writers':>7}  {'where':<16} {'writes/s':>9} {'vs lone':>8} {'retries/100':>11}"
            f" {'given up':>8}"
        )
        for writers in counts:
            runs: dict[str, list[ConcurrentWrites]] = {name: [] for name in setups}
            for _ in range(args.passes):  # interleaved: a drift of the machine hits all alike
                for name, urls in setups.items():
                    video = create_video(urls[0], f"{writers} writers, {name}")
                    runs[name].append(
                        run_writers(urls, video, writers, args.writes_each, args.edit_every)
                    )
            anchor = median(runs["lone MariaDB"], lambda run: run.writes_per_s)
            for name, done in runs.items():
                rate = median(done, lambda run: run.writes_per_s)
                retried = sum(run.transient_retries for run in done)
                retries = 100 * retried / sum(run.writes for run in done)
                print(
                    f"{writers:>7}  {name:<16} {rate:>9.0f} {rate / anchor:>7.2f}x {retries:>11.1f}"
                )


def median(runs: list[ConcurrentWrites], value: Callable[[ConcurrentWrites], float]) -> float:
    return statistics.median(value(run) for run in runs)


if __name__ == "__main__":
    main()
