"""Loopback ports: find a free one, or make sure a chosen one is free."""

import errno
import socket

from layerbench.errors import PortInUseError

LOOPBACK = "127.0.0.1"


def free_port(host: str = LOOPBACK) -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind((host, 0))
        port: int = probe.getsockname()[1]
        return port


def ensure_port_free(host: str, port: int) -> None:
    """Raise PortInUseError when something listens on host:port (servers set SO_REUSEADDR,
    so a port held only by connections in TIME_WAIT counts as free, as it does for them)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((host, port))
        except OSError as error:
            if error.errno == errno.EADDRINUSE:
                raise PortInUseError(host, port) from None
            raise
