"""The load generator on every client host of a topology at once, against one URL, and their
results merged exactly into one load document (:func:`~layerbench.lab.load_merge.merge_loads`:
the counts and the histograms added by ``layerbench-load merge``, never the percentiles
averaged).

Each client runs ``layerbench-load`` inside its host's namespace (``ip netns exec``), all of
them started together and each waited for on a thread of its own; the first failure is the
run's, and on it (or Ctrl-C) the others are not waited for: leaving the network kills them.
A client reached over SSH (a topology's ``ssh`` host) runs it there
(:mod:`layerbench.lab.ssh_load`), its JSON read back over the channel; on a failure or Ctrl-C
its local ssh is ended, which ends the remote run (it is in no namespace of the network).
On this 2-core machine the clients share the same CPUs: several client hosts add isolation
(their own addresses, their own connections), not capacity.
"""

from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from layerbench.errors import ConfigError
from layerbench.hosts.lab_network import LabNetwork
from layerbench.lab.load_merge import merge_loads
from layerbench.lab.loadgen import LoadSpec, run_load
from layerbench.lab.ssh_load import SshSessions, run_load_over_ssh
from layerbench.results.load_result import LoadResult


def load_from_clients(
    network: LabNetwork,
    *,
    binary: Path,
    url: str,
    spec: LoadSpec,
    workdir: Path,
    label: str = "",
    cpus: frozenset[int] | None = None,
    started: Callable[[int], None] | None = None,
) -> tuple[LoadResult, list[LoadResult]]:
    """Every client host's run, and them merged into one. ``started`` is told each client's
    session once it runs (from the client's own thread); ``label`` names the run's files;
    ``cpus``: where the clients run (all of them on the same ones)."""
    clients = network.topology.with_role("client")
    ssh_clients = network.topology.ssh_hosts  # clients all
    if not clients and not ssh_clients:
        raise ConfigError("the topology has no host with the role client")
    pool = ThreadPoolExecutor(max_workers=len(clients) + len(ssh_clients))
    ssh_sessions = SshSessions()
    try:
        runs = [
            pool.submit(
                run_load,
                binary=binary,
                url=url,
                spec=spec,
                workdir=workdir,
                label=f"{label}-{host.name}" if label else host.name,
                prefix=network.command(host, []),
                cpus=cpus,
                started=started,
            )
            for host in clients
        ]
        runs += [
            pool.submit(
                run_load_over_ssh,
                host,
                network.topology.ssh_config,
                binary=binary,
                url=url,
                spec=spec,
                workdir=workdir,
                started=ssh_sessions.started,
            )
            for host in ssh_clients
        ]
        results = [run.result() for run in runs]
    except BaseException:
        ssh_sessions.end(hang_up=True)
        raise
    finally:
        ssh_sessions.end(hang_up=False)
        # On Ctrl-C or a client's failure, not waiting for the others: the network's removal
        # kills what still runs in its namespaces, which ends their threads.
        pool.shutdown(wait=False, cancel_futures=True)
    return merge_loads(results, binary), results
