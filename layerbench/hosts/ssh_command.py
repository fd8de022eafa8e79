"""The command line that runs a command on a host reached over SSH.

``ssh -tt``: the remote command gets a terminal, and when the connection ends (the local ssh
ended by a Ctrl-C, a failure or layerbench's own end) sshd hangs that terminal up, so the
kernel sends SIGHUP to what runs on it. Without a terminal, sshd leaves a remote command
running after its client is gone (tried: ``sleep`` outlived a killed ``ssh``; with ``-tt`` it
did not). The price: the remote command's stdout and stderr arrive as one stream, its line
ends as ``\\r\\n``.

``BatchMode=yes``: nothing asks for a password or a new host key (an unknown host key is a
failure: add it to known_hosts first). ``LogLevel=ERROR`` keeps ssh's notices out of that
stream; its errors stay. ``ssh_config`` (``-F FILE``) replaces ~/.ssh/config, as ssh does:
``Include ~/.ssh/config`` in it keeps the user's.
"""

import shlex
from collections.abc import Sequence
from pathlib import Path

from layerbench.hosts.ssh_host import SshHost

SSH = "ssh"
EXIT_SSH_FAILED = 255  # ssh's own failure (it cannot connect, log in, ...), not the command's
CONNECT_TIMEOUT_S = 10
# A connection that stops answering ends within ALIVE_INTERVAL_S * ALIVE_COUNT seconds.
ALIVE_INTERVAL_S = 5
ALIVE_COUNT = 3


def ssh_command(host: SshHost, ssh_config: Path | None, command: Sequence[str]) -> list[str]:
    """``command`` (an argv, quoted for the remote shell) run on ``host``."""
    return [
        SSH,
        *(("-F", str(ssh_config)) if ssh_config is not None else ()),
        "-tt",
        "-o",
        "BatchMode=yes",
        "-o",
        "LogLevel=ERROR",
        "-o",
        f"ConnectTimeout={CONNECT_TIMEOUT_S}",
        "-o",
        f"ServerAliveInterval={ALIVE_INTERVAL_S}",
        "-o",
        f"ServerAliveCountMax={ALIVE_COUNT}",
        *(("-p", str(host.port)) if host.port is not None else ()),
        "--",
        host.destination,
        "exec " + shlex.join(command),
    ]
