"""Which host of the lab's network a process runs on: the network namespace it is in.

A named namespace is a file under ``/run/netns`` bound to the namespace itself, so its inode is
the namespace's; ``/proc/PID/ns/net`` of a process inside it has that same inode. Every host of a
run is read once, at the start of a trial; a process whose namespace is none of them runs on
this machine's own network (``local``).
"""

import os
from pathlib import Path

from layerbench.hosts.inside import NAMED_NAMESPACES
from layerbench.hosts.lab_network import LabNetwork
from layerbench.hosts.placement import LOCAL

PROC = Path("/proc")


def namespace_inode(path: Path) -> int | None:
    try:
        return os.stat(path).st_ino
    except OSError:
        return None


def host_namespaces(network: LabNetwork) -> dict[int, str]:
    """The inode of each host's namespace → the host's name."""
    found = {}
    for host in network.topology.hosts:
        inode = namespace_inode(NAMED_NAMESPACES / network.namespace(host))
        if inode is not None:
            found[inode] = host.name
    return found


def host_of(pid: int, hosts: dict[int, str]) -> str | None:
    """The host ``pid`` runs on; None when ``hosts`` is empty (no topology) or the process is
    gone."""
    if not hosts:
        return None
    inode = namespace_inode(PROC / str(pid) / "ns" / "net")
    if inode is None:
        return None
    return hosts.get(inode, LOCAL.name)
