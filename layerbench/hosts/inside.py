"""This thread inside a host's network: the way the lab places a process, a probe or a request
on one of its hosts.

Linux keeps a network namespace per thread: ``setns(2)`` moves the calling thread alone, and a
process it then forks starts in the namespace the thread is in. So while a thread is
:func:`inside` a host's namespace, everything it does there happens on that host, with no
wrapper in between:

- a server or service it starts (``ManagedProcess``) runs in the host's network, its pid the
  server's own (the sampler, the stop and the watchdog see the real process, not
  ``ip netns exec``);
- a socket it opens (a readiness probe, a port check, a verification request, a database
  client) is opened in the host's network, reaching the host's own loopback and, over the
  bridge, the other hosts' addresses.

On the way out the thread returns to the network it came from, whatever happened inside.
"""

import ctypes
import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from layerbench.hosts.netns import NamespaceError

CLONE_NEWNET = 0x40000000
NAMED_NAMESPACES = Path("/run/netns")  # where ``ip netns add`` binds a namespace's name
THIS_THREAD = Path("/proc/thread-self/ns/net")

_libc = ctypes.CDLL(None, use_errno=True)


def _enter(descriptor: int, what: str) -> None:
    if _libc.setns(descriptor, CLONE_NEWNET) != 0:
        error = ctypes.get_errno()
        raise NamespaceError(f"cannot enter the network of {what}: {os.strerror(error)}")


@contextmanager
def inside(namespace: str | None) -> Iterator[None]:
    """This thread in the network namespace ``namespace`` (a name ``ip netns`` knows) while
    inside; None stays where it is (this machine's own network)."""
    if namespace is None:
        yield
        return
    try:
        target = os.open(NAMED_NAMESPACES / namespace, os.O_RDONLY | os.O_CLOEXEC)
    except OSError as error:
        raise NamespaceError(f"no network namespace {namespace}: {error.strerror}") from None
    home = os.open(THIS_THREAD, os.O_RDONLY | os.O_CLOEXEC)
    try:
        _enter(target, namespace)
        try:
            yield
        finally:
            _enter(home, "this thread's own network")
    finally:
        os.close(target)
        os.close(home)
