"""Standard input and output joined to a TCP address: ``python3 tcp_relay.py HOST PORT``.

tests/e2e/test_hosts_ssh.py's ssh_config runs it as a ``ProxyCommand`` inside a lab namespace
(``ip netns exec NS``), the way a user's ProxyCommand reaches a host only another network
routes to; a connection it cannot make is one line on stderr and exit status 1.
"""

import os
import socket
import sys
import threading


def _forward_stdin(connection: socket.socket) -> None:
    while data := os.read(0, 65536):
        connection.sendall(data)
    connection.shutdown(socket.SHUT_WR)


def main() -> int:
    host, port = sys.argv[1], int(sys.argv[2])
    try:
        connection = socket.create_connection((host, port), timeout=5)
    except OSError as error:
        print(f"tcp_relay: cannot connect to {host}:{port}: {error}", file=sys.stderr)
        return 1
    connection.settimeout(None)
    threading.Thread(target=_forward_stdin, args=(connection,), daemon=True).start()
    while data := connection.recv(65536):
        os.write(1, data)  # a pipe: a short write only on a signal, which ends us anyway
    return 0


if __name__ == "__main__":
    sys.exit(main())
