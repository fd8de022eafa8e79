"""nginx serving static files on a host of the lab's network (a namespace of
:mod:`layerbench.hosts.lab_network`), probed from inside that host.

It listens on every address of its namespace (its ``eth0`` and its own loopback): the start's
check that the port is free binds in layerbench's own namespace, where the host's address does
not exist; its URL is the host's address.
"""

import subprocess
import sys
from pathlib import Path

from layerbench.hosts.lab_network import LabNetwork
from layerbench.hosts.topology import Host
from layerbench.proc.ports import free_port
from layerbench.servers.nginx import NginxStatic

# Fetches argv[1] and prints its body; exit status 1 if it cannot.
FETCH = (
    "import sys, urllib.request; "
    "print(urllib.request.urlopen(sys.argv[1], timeout=2).read().decode())"
)


class NginxOnHost(NginxStatic):
    def __init__(
        self, network: LabNetwork, host: Host, workdir: Path, files: dict[str, bytes]
    ) -> None:
        super().__init__(workdir, free_port(), files)
        self.network = network
        self.on_host = host
        self.host = "0.0.0.0"

    @property
    def base_url(self) -> str:
        return f"http://{self.on_host.address}:{self.port}"

    def command(self) -> list[str]:
        return self.network.command(self.on_host, super().command())

    def probe(self) -> str | None:
        url = self.base_url + self.ready_path
        fetch = self.network.command(self.on_host, [sys.executable, "-c", FETCH, url])
        done = subprocess.run(fetch, capture_output=True, text=True, timeout=10, check=False)
        return None if done.returncode == 0 else f"{url}: {done.stderr.strip()[-200:]}"
