"""``ip`` commands on network namespaces: the only place the lab calls ``ip``."""

import subprocess
from collections.abc import Sequence

from layerbench.errors import LayerbenchError

IP = "ip"


class NamespaceError(LayerbenchError):
    """An ``ip`` command failed; its message is ip's own."""


def ip(*args: str, namespace: str | None = None) -> str:
    """Runs ``ip [-n NAMESPACE] ARGS``; its output, or a NamespaceError with ip's message."""
    command = [IP, *(("-n", namespace) if namespace else ()), *args]
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=30, check=False)
    except FileNotFoundError:
        raise NamespaceError("network namespaces need ip (Debian package iproute2)") from None
    if done.returncode != 0:
        raise NamespaceError(f"{' '.join(command)}: {done.stderr.strip() or 'failed'}")
    return done.stdout


def namespaces() -> list[str]:
    """The names of the namespaces ``ip netns`` knows."""
    return [line.split()[0] for line in ip("netns", "list").splitlines() if line.strip()]


def pids_in(namespace: str) -> list[int]:
    """The processes in ``namespace``."""
    try:
        return [int(pid) for pid in ip("netns", "pids", namespace).split()]
    except NamespaceError:
        return []


def exec_command(namespace: str, command: Sequence[str]) -> list[str]:
    """The command line that runs ``command`` inside ``namespace``."""
    return [IP, "netns", "exec", namespace, *command]
