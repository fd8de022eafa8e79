"""A private sshd for the tests: its host key, configuration and authorized_keys in a
directory of its own, listening on its own port on a host of the lab's network (a namespace),
reached by ``ssh -F`` through the ssh_config :func:`client_config` writes.

Never the machine's sshd: this one is started by the test, in the test's namespace, and
stopped with it.
"""

import getpass
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from layerbench.hosts.inside import inside
from layerbench.hosts.lab_network import LabNetwork
from layerbench.proc.ports import free_port
from layerbench.proc.process import ManagedProcess

SSHD = Path("/usr/sbin/sshd")  # sshd refuses to run unless started by its absolute path
PRIVILEGE_SEPARATION_DIR = Path("/run/sshd")  # made by Debian's ssh.service, which we never run
RELAY = Path(__file__).with_name("tcp_relay.py")
READY_TIMEOUT_S = 10.0


@dataclass(frozen=True)
class SshServer:
    directory: Path
    host: str  # the lab host (namespace) it runs on
    address: str
    port: int
    process: ManagedProcess

    @property
    def client_key(self) -> Path:
        return self.directory / "client_key"

    def known_hosts_line(self) -> str:
        key = (self.directory / "host_key.pub").read_text().split()
        return f"[{self.address}]:{self.port} {key[0]} {key[1]}\n"


def _keygen(path: Path) -> None:
    subprocess.run(
        ["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", "layerbench-test", "-f", str(path)],
        check=True,
        capture_output=True,
        timeout=30,
    )


def _config(directory: Path, address: str, port: int) -> str:
    return "\n".join(
        [
            f"ListenAddress {address}:{port}",
            f"HostKey {directory / 'host_key'}",
            f"AuthorizedKeysFile {directory / 'authorized_keys'}",
            f"AllowUsers {getpass.getuser()}",
            "PidFile none",
            "UsePAM no",
            "StrictModes no",  # the keys sit under /tmp, which is world-writable
            "PasswordAuthentication no",
            "KbdInteractiveAuthentication no",
            "PermitRootLogin prohibit-password",
            "LogLevel VERBOSE",
            "",
        ]
    )


def _wait_listening(address: str, port: int, namespace: str, server: ManagedProcess) -> None:
    deadline = time.monotonic() + READY_TIMEOUT_S
    while True:
        try:
            with inside(namespace), socket.create_connection((address, port), timeout=1):
                return
        except OSError:
            if server.returncode() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"the test's sshd did not start: {server.log_tail()}") from None
            time.sleep(0.05)


@contextmanager
def ssh_server(
    network: LabNetwork, host: str, directory: Path, port: int | None = None
) -> Iterator[SshServer]:
    """A private sshd on ``host`` of ``network`` (on ``port``, else a free one), its files
    under ``directory``."""
    directory.mkdir(mode=0o700, exist_ok=True)
    _keygen(directory / "host_key")
    _keygen(directory / "client_key")
    shutil.copy(directory / "client_key.pub", directory / "authorized_keys")
    address, port = str(network.topology.host(host).address), port or free_port()
    (directory / "sshd_config").write_text(_config(directory, address, port))
    PRIVILEGE_SEPARATION_DIR.mkdir(mode=0o755, exist_ok=True)
    argv = [str(SSHD), "-D", "-e", "-f", str(directory / "sshd_config")]
    process = ManagedProcess("sshd", argv, log_path=directory / "sshd.log")
    with inside(network.namespace(host)):
        process.start()
    try:
        _wait_listening(address, port, network.namespace(host), process)
        yield SshServer(directory, host, address, port, process)
    finally:
        process.stop()


def client_config(server: SshServer, network: LabNetwork, alias: str, via: str) -> str:
    """An ssh_config naming ``alias`` for ``server``, reached through a ProxyCommand inside
    the lab host ``via`` (the machine's own network has no route to the lab's)."""
    known_hosts = server.directory / "known_hosts"
    known_hosts.write_text(server.known_hosts_line())
    relay = " ".join(network.command(via, [sys.executable, "-I", str(RELAY), "%h", "%p"]))
    return "\n".join(
        [
            f"Host {alias}",
            f"    HostName {server.address}",
            f"    IdentityFile {server.client_key}",
            "    IdentitiesOnly yes",
            f"    UserKnownHostsFile {known_hosts}",
            "    StrictHostKeyChecking yes",
            f"    ProxyCommand {relay}",
            "",
        ]
    )
