"""The listen backlog uvicorn's adapters pass: as deep as the kernel grants (net.core.somaxconn),
not the lab's LISTEN_BACKLOG. uvloop accepts one connection per pass of its event loop, and a
pass over thousands of busy connections took 0.1 to 2 s (strace of a worker at c=5000), so the
connections the workers have not yet taken wait in the kernel's queue for seconds: at c=5000
the lab's 1,024 overflowed, its SYNs dropped and retried and the handshakes it dropped answered
with resets (ECONNRESET in the client)."""

from pathlib import Path

from layerbench.servers.managed_server import LISTEN_BACKLOG

SOMAXCONN = Path("/proc/sys/net/core/somaxconn")


def deepest_backlog() -> int:
    """``net.core.somaxconn``, the most a listen() is granted (Linux cuts a larger one down to
    it); the lab's LISTEN_BACKLOG when that is more, or cannot be read."""
    try:
        return max(LISTEN_BACKLOG, int(SOMAXCONN.read_text()))
    except (OSError, ValueError):
        return LISTEN_BACKLOG
