"""A topology's hosts as network namespaces: made for a run, removed after it, however it ends.

Each host is a namespace ``lbh-TOKEN-HOST`` with one interface, ``eth0``, at its address in
the topology's subnet; its other end is a veth port of the bridge ``br0`` in the run's switch
namespace ``lbh-TOKEN``. The bridge and the subnet exist only inside those namespaces: the
machine's own network namespace gains no interface, address or route, and nothing in the
subnet is reachable from it (traffic stays between the run's hosts).

Removal kills every process still inside a run's namespaces (they can only be the run's) and
deletes the namespaces, which takes their veth pairs and the bridge with them. On an ordinary
end, an exception or Ctrl-C, the context manager does it; after a SIGKILL, the next run's
:func:`sweep_abandoned_networks` does: before any namespace is made, a marker
``/run/layerbench-hosts/TOKEN`` names its owner (pid, start time and boot, as
:mod:`layerbench.proc.work_dirs` marks its directories) and the namespaces, so a sweep removes
only namespaces it can prove a dead run of ours made: the marker a regular file of our account,
its owner gone, each name the token's. Two commands may sweep at once (both started after the
killed run): each holds a marker's lock (``flock``) while it removes what the marker names, and
the other passes it by; a namespace already gone when it is deleted is not an error.
"""

import fcntl
import os
import secrets
import signal
import stat
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path

from layerbench.hosts import netns
from layerbench.hosts.topology import Host, Topology
from layerbench.proc.work_dirs import owner_alive, owner_record

STATE_DIR = Path("/run/layerbench-hosts")
PREFIX = "lbh-"
BRIDGE = "br0"
INTERFACE = "eth0"


@dataclass(frozen=True)
class LabNetwork:
    topology: Topology
    token: str

    @property
    def switch(self) -> str:
        """The namespace that holds the bridge."""
        return f"{PREFIX}{self.token}"

    def namespace(self, host: Host | str) -> str:
        name = host if isinstance(host, str) else host.name
        return f"{self.switch}-{self.topology.host(name).name}"

    def namespaces(self) -> list[str]:
        return [self.switch, *(self.namespace(host) for host in self.topology.hosts)]

    def command(self, host: Host | str, command: Sequence[str]) -> list[str]:
        """``command`` as run inside ``host``'s namespace."""
        return netns.exec_command(self.namespace(host), command)

    @property
    def marker(self) -> Path:
        return STATE_DIR / self.token


def _write_marker(network: LabNetwork) -> None:
    STATE_DIR.mkdir(mode=0o700, exist_ok=True)
    partial = network.marker.with_suffix(".new")
    lines = [owner_record(os.getpid()), *network.namespaces()]
    partial.write_text("\n".join(lines) + "\n")
    partial.rename(network.marker)  # whole or absent: never half a marker


def _wire(network: LabNetwork) -> None:
    switch = network.switch
    netns.ip("netns", "add", switch)
    netns.ip("link", "add", BRIDGE, "type", "bridge", namespace=switch)
    netns.ip("link", "set", BRIDGE, "up", namespace=switch)
    prefix = network.topology.subnet.prefixlen
    for number, host in enumerate(network.topology.hosts):
        name = network.namespace(host)
        port = f"v{number}"
        netns.ip("netns", "add", name)
        netns.ip(
            "link",
            "add",
            port,
            "type",
            "veth",
            "peer",
            "name",
            INTERFACE,
            "netns",
            name,
            namespace=switch,
        )
        netns.ip("link", "set", port, "master", BRIDGE, "up", namespace=switch)
        netns.ip("addr", "add", f"{host.address}/{prefix}", "dev", INTERFACE, namespace=name)
        netns.ip("link", "set", INTERFACE, "up", namespace=name)
        netns.ip("link", "set", "lo", "up", namespace=name)


def remove_namespaces(names: Sequence[str]) -> list[str]:
    """Kills the processes inside ``names`` and deletes those namespaces; the ones removed."""
    existing = set(netns.namespaces())
    removed = []
    for name in names:
        if name not in existing:
            continue
        for pid in netns.pids_in(name):
            with suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        try:
            netns.ip("netns", "del", name)
        except netns.NamespaceError:
            if name in netns.namespaces():
                raise
            continue  # deleted meanwhile, by another command's sweep
        removed.append(name)
    return removed


@contextmanager
def lab_network(topology: Topology) -> Iterator[LabNetwork]:
    """The topology's hosts as namespaces on one bridge, removed on the way out (an earlier
    killed run's leftovers are swept first)."""
    sweep_abandoned_networks()
    network = LabNetwork(topology, secrets.token_hex(4))
    _write_marker(network)
    try:
        _wire(network)
        yield network
    finally:
        remove_namespaces(network.namespaces())
        network.marker.unlink(missing_ok=True)


def _abandoned_names(marker: Path, opened: int) -> list[str] | None:
    """The namespaces a dead run's marker names (its token's only); None if the marker is not
    provably a dead run of ours. ``opened``: the marker, open."""
    try:
        status = os.fstat(opened)
        if (
            not stat.S_ISREG(status.st_mode)
            or status.st_uid != os.geteuid()
            or os.lstat(marker).st_ino != status.st_ino  # removed by another sweep meanwhile
        ):
            return None
        with os.fdopen(os.dup(opened)) as text:
            record, *names = text.read().splitlines()
    except (OSError, ValueError):
        return None
    if len(record.split()) != 3 or owner_alive(record):
        return None
    own = f"{PREFIX}{marker.stem}"
    return [name for name in names if name == own or name.startswith(own + "-")]


@contextmanager
def _locked(marker: Path) -> Iterator[int | None]:
    """``marker`` open and locked by us; None if another command's sweep holds it (or it has
    gone, or is not a regular file)."""
    try:
        opened = os.open(marker, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError:
        yield None
        return
    try:
        try:
            fcntl.flock(opened, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            yield None
        else:
            yield opened
    finally:
        os.close(opened)  # and the lock with it


def sweep_abandoned_networks() -> list[str]:
    """Removes the namespaces of runs that were killed (their markers say so); says so on
    stderr in one line. Returns the namespaces removed (not those another command's sweep
    removes at the same time)."""
    try:
        markers = sorted(STATE_DIR.iterdir())
    except OSError:
        return []
    removed: list[str] = []
    for marker in markers:
        with _locked(marker) as opened:
            names = None if opened is None else _abandoned_names(marker, opened)
            if names is None:
                continue
            if marker.suffix != ".new":  # a half-written marker: killed before any namespace
                removed += remove_namespaces(names)
            marker.unlink(missing_ok=True)
    if removed:
        print(
            f"layerbench: removed {len(removed)} network namespaces left by runs that were "
            f"killed ({', '.join(removed)})",
            file=sys.stderr,
        )
    return removed
