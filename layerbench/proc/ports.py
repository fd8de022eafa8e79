"""Loopback ports: find a free one, or make sure a chosen one is free."""

import errno
import os
import random
import socket
from pathlib import Path

from layerbench.errors import PortInUseError

LOOPBACK = "127.0.0.1"
TCP_LISTEN = "0A"  # the state column of /proc/net/tcp


def free_port(host: str = LOOPBACK) -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind((host, 0))
        port: int = probe.getsockname()[1]
        return port


def ensure_port_free(host: str, port: int) -> None:
    """Raise PortInUseError when something listens on host:port (servers set SO_REUSEADDR,
    so a port held only by connections in TIME_WAIT counts as free, as it does for them)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((host, port))
        except OSError as error:
            if error.errno == errno.EADDRINUSE:
                raise PortInUseError(host, port) from None
            raise


def listening_socket_inodes(port: int, pid: int | str = "thread-self") -> set[int]:
    """Inodes of the TCP sockets listening on ``port`` (any address) in the network of ``pid``
    (by default: this thread's, which may be a lab host's, not this process's)."""
    inodes = set()
    for table in (f"/proc/{pid}/net/tcp", f"/proc/{pid}/net/tcp6"):
        try:
            lines = Path(table).read_text().splitlines()[1:]
        except OSError:
            continue
        for line in lines:
            fields = line.split()
            local_port = int(fields[1].rsplit(":", 1)[1], 16)
            if local_port == port and fields[3] == TCP_LISTEN:
                inodes.add(int(fields[9]))
    return inodes


def holds_listening_socket(pid: int, port: int) -> bool:
    """Whether process ``pid`` itself has a socket listening on ``port``: a probe that got an
    answer on a port may have reached another server that already held it."""
    wanted = {f"socket:[{inode}]" for inode in listening_socket_inodes(port, pid)}
    if not wanted:
        return False
    try:
        descriptors = list(Path(f"/proc/{pid}/fd").iterdir())
    except OSError:
        return False
    for descriptor in descriptors:
        try:
            if os.readlink(descriptor) in wanted:
                return True
        except OSError:
            continue
    return False


# Below the kernel's ephemeral range (32768 and up by default), where no outgoing connection
# takes a port, and its TIME-WAIT cannot keep a server that does not set SO_REUSEADDR (Galera's
# replication ports) from binding it.
LOW_PORTS = range(20000, 32768)
LOW_PORT_ATTEMPTS = 200


def free_low_ports(count: int, host: str = LOOPBACK, *, companion: int = 0) -> list[int]:
    """``count`` distinct ports below the ephemeral range that nothing holds on ``host`` (a
    bind without SO_REUSEADDR succeeds: no listener, no connection in TIME-WAIT); with
    ``companion``, each port's port + companion is free and below the range too (Redis
    Cluster's bus port is its port + 10000)."""
    chosen: list[int] = []
    candidates = range(LOW_PORTS.start, LOW_PORTS.stop - companion)
    for _ in range(LOW_PORT_ATTEMPTS):
        if len(chosen) == count:
            break
        port = random.choice(candidates)
        wanted = {port, port + companion}
        if wanted & {taken + offset for taken in chosen for offset in (0, companion)}:
            continue
        if all(can_bind(host, each) for each in wanted):
            chosen.append(port)
    if len(chosen) < count:
        raise PortInUseError(host, chosen[-1] if chosen else LOW_PORTS.start)
    return chosen


def can_bind(host: str, port: int) -> bool:
    """Whether a socket can bind ``host:port`` now, without SO_REUSEADDR."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        try:
            probe.bind((host, port))
        except OSError:
            return False
    return True
