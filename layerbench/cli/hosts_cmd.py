"""``layerbench hosts``: a topology's hosts as network namespaces, for a look or a try.

layerbench hosts up TOPOLOGY   makes the hosts (root needed), prints a line a host: its name,
                               address, roles and the command prefix that runs a command on
                               it; Ctrl-C (or SIGTERM, or SIGHUP: the terminal
                               closed) removes them and what runs in them.
                               A host reached over SSH is not made: its line has its ssh
                               destination for an address and the ssh command line as prefix
"""

import argparse
import os
import signal
import sys
from pathlib import Path
from typing import Any

from layerbench.console.output import print_out
from layerbench.errors import ConfigError
from layerbench.hosts.lab_network import lab_network
from layerbench.hosts.ssh_command import ssh_command
from layerbench.hosts.topology import read_topology


def add_parser(commands: Any) -> None:
    parser = commands.add_parser(
        "hosts",
        help="a topology's hosts as network namespaces",
        description="A topology's hosts as network namespaces on a bridge of their own.",
    )
    actions = parser.add_subparsers(dest="hosts_action", required=True, metavar="ACTION")
    up_parser = actions.add_parser("up", help="make the hosts, print them, remove them on Ctrl-C")
    up_parser.add_argument("topology", type=Path, help="the topology file (TOML)")
    up_parser.set_defaults(handler=cmd_up)


def cmd_up(args: argparse.Namespace) -> int:
    topology = read_topology(args.topology)
    if os.geteuid() != 0:
        raise ConfigError("network namespaces need root: run layerbench hosts up as root")
    with lab_network(topology) as network:
        for host in topology.hosts:
            prefix = " ".join(network.command(host, []))
            print_out(f"{host.name} {host.address} {','.join(host.roles)} {prefix}")
        for remote in topology.ssh_hosts:
            port = f":{remote.port}" if remote.port is not None else ""
            prefix = " ".join(ssh_command(remote, topology.ssh_config, [])[:-1])
            print_out(f"{remote.name} {remote.destination}{port} {','.join(remote.roles)} {prefix}")
        print("up; Ctrl-C removes them", file=sys.stderr, flush=True)
        while True:
            signal.pause()
