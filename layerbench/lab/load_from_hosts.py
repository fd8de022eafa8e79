"""The load generator on every client host of a topology at once, against one URL, and their
results merged exactly (:func:`~layerbench.results.load_merge.merge_loads`: the histograms
added, never the percentiles averaged).

Each client runs ``layerbench-load`` inside its host's namespace (``ip netns exec``), all of
them started together and each waited for on a thread of its own; the first failure is the
run's, and on it (or Ctrl-C) the others are not waited for: leaving the network kills them.
On this 2-core machine the clients share the same CPUs: several client hosts add isolation
(their own addresses, their own connections), not capacity.
"""

from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from layerbench.errors import ConfigError
from layerbench.hosts.lab_network import LabNetwork
from layerbench.lab.loadgen import LoadSpec, run_load
from layerbench.results.load_merge import merge_loads
from layerbench.results.load_result import LoadResult


def load_from_clients(
    network: LabNetwork, *, binary: Path, url: str, spec: LoadSpec, workdir: Path
) -> tuple[LoadResult, list[LoadResult]]:
    """Every client host's run, and them merged into one."""
    clients = network.topology.with_role("client")
    if not clients:
        raise ConfigError("the topology has no host with the role client")
    pool = ThreadPoolExecutor(max_workers=len(clients))
    try:
        runs = [
            pool.submit(
                run_load,
                binary=binary,
                url=url,
                spec=spec,
                workdir=workdir,
                label=host.name,
                prefix=network.command(host, []),
            )
            for host in clients
        ]
        results = [run.result() for run in runs]
    finally:
        # On Ctrl-C or a client's failure, not waiting for the others: the network's removal
        # kills what still runs in its namespaces, which ends their threads.
        pool.shutdown(wait=False, cancel_futures=True)
    return merge_loads(results), results
