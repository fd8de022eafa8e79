"""``ip`` commands on network namespaces: the only place the lab calls ``ip``."""

import ipaddress
import json
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


def machine_networks() -> list[ipaddress.IPv4Network]:
    """The IPv4 networks of this machine's own network namespace: each address's network
    (``ip -j addr``) and each route's destination but the default (``ip -j route``, every
    table); a lab's subnet must overlap none of them."""
    found: list[ipaddress.IPv4Network] = []
    try:
        links = json.loads(ip("-j", "-4", "addr", "show"))
        routes = json.loads(ip("-j", "-4", "route", "show", "table", "all"))
    except ValueError as error:
        raise NamespaceError(f"ip -j printed what is not JSON: {error}") from None
    for link in links:
        for address in link.get("addr_info", ()):
            if address.get("family") == "inet":
                found.append(
                    ipaddress.IPv4Network(
                        f"{address['local']}/{address['prefixlen']}", strict=False
                    )
                )
    for route in routes:
        destination = route.get("dst", "default")
        if destination != "default":
            found.append(ipaddress.IPv4Network(destination, strict=False))
    return found
