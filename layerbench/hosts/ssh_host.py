"""A topology host reached over SSH: a real machine elsewhere, not one of the lab's namespaces.

    ssh_config = "lab_ssh_config"        # optional, top level: ssh -F FILE (beside the topology)

    [hosts.far1]
    ssh = "bench@far1.example.org:2222"  # [user@]host[:port], as ssh takes it
    roles = ["client"]
    load_binary = "/opt/layerbench/bin/layerbench-load"  # optional

Its commands run through ``ssh -o BatchMode=yes`` (:mod:`layerbench.hosts.ssh_command`): the
user's keys, agent and ssh_config apply, and nothing asks for a password. It takes no address
in the lab's subnet and gets no namespace. What it can do: the client role, the load generator
run on it (the same path as here unless ``load_binary`` says). The other roles run on the
lab's namespaces only; a topology that gives one to an SSH host is refused in one line.
"""

import re
from dataclasses import dataclass
from typing import Annotated

from layerbench.errors import ConfigError
from layerbench.typed_documents import Closed, Refusal

SSH_ROLES = ("client",)
# A user and a host as a command line may carry them: no leading '-' (an option to ssh), no
# space or quote; a host name or an IPv4 address.
DESTINATION = re.compile(
    r"(?:(?P<user>[A-Za-z0-9_][A-Za-z0-9_.-]*)@)?(?P<host>[A-Za-z0-9][A-Za-z0-9.-]*)"
    r"(?::(?P<port>[0-9]{1,5}))?"
)


@dataclass(frozen=True)
class SshHost:
    name: str
    roles: tuple[str, ...]
    destination: str  # [user@]host
    port: int | None
    load_binary: str | None  # the load generator's path on it; None: the same as here


@dataclass(frozen=True)
class SshHostTable(Closed):
    """``[hosts.NAME]`` of a host reached over SSH, as written."""

    roles: tuple[str, ...]
    ssh: Annotated[str, Refusal('is expected as "[user@]host[:port]"')]
    load_binary: str | None = None


def ssh_host_from(name: str, table: SshHostTable, where: str) -> SshHost:
    """The host ``name`` (``where``: "the topology t.toml: host NAME"), read from its table."""
    found = DESTINATION.fullmatch(table.ssh)
    port = int(found["port"]) if found and found["port"] else None
    if found is None or (port is not None and not 1 <= port <= 65535):
        raise ConfigError(f'{where}: ssh = {table.ssh!r}: expected "[user@]host[:port]"')
    roles = table.roles
    if set(roles) - set(SSH_ROLES):
        others = ", ".join(sorted(set(roles) - set(SSH_ROLES)))
        raise ConfigError(
            f"{where}: an SSH host can be a client only (it runs the load generator); "
            f"{others} run on the lab's namespaces (a host without ssh)"
        )
    load_binary = table.load_binary
    if load_binary is not None and load_binary[:1] != "/":
        raise ConfigError(f"{where}: load_binary must be an absolute path on that host")
    destination = f"{found['user']}@{found['host']}" if found["user"] else found["host"]
    return SshHost(name, roles, destination, port, load_binary)
