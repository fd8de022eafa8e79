"""Run a command as a child subreaper, interrupt it, and list what it left behind.

    python -m tests.reaper WAIT_FOR_TEXT TIMEOUT_S [SIGNAL] -- COMMAND...

Starts COMMAND with stderr piped, waits until its stderr shows WAIT_FOR_TEXT, sends it SIGINT
(as a terminal's Ctrl-C would; or SIGNAL, a name such as SIGHUP), waits for it to exit, and
prints one JSON line: its exit code, its stderr, and the pids of any descendants still alive.
Being a subreaper, this process adopts every orphan of COMMAND, so a leftover cannot hide by
being re-parented to init.
"""

import ctypes
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

PR_SET_CHILD_SUBREAPER = 36


def children_of(pid: int) -> list[int]:
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                fields = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid and fields[0] != "Z":
                found.append(int(entry))
    return found


def as_from_a_shell() -> None:
    """SIGINT and SIGHUP not ignored, as an interactive shell starts a command, whatever this
    runner was given (a background job's SIGINT ignored, nohup's SIGHUP ignored): the command
    inherits them so, and the signals sent are then the ones it handles."""
    for signum in (signal.SIGINT, signal.SIGHUP):
        if signal.getsignal(signum) == signal.SIG_IGN:
            signal.signal(signum, signal.SIG_DFL)


def main() -> None:
    wait_for, timeout_s = sys.argv[1], float(sys.argv[2])
    separator = sys.argv.index("--")
    sent = signal.Signals[sys.argv[3]] if separator > 3 else signal.SIGINT
    command = sys.argv[separator + 1 :]
    ctypes.CDLL(None).prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
    as_from_a_shell()
    child = subprocess.Popen(command, stderr=subprocess.PIPE)
    assert child.stderr is not None
    stderr_fd = child.stderr.fileno()
    received = b""
    deadline = time.monotonic() + timeout_s
    os.set_blocking(stderr_fd, False)
    while wait_for.encode() not in received and time.monotonic() < deadline:
        try:
            chunk = os.read(stderr_fd, 65536)
        except BlockingIOError:
            chunk = None
        if chunk == b"":
            break
        received += chunk or b""
        time.sleep(0.05)
    seen = wait_for.encode() in received
    child.send_signal(sent)
    try:
        child.wait(30)
    except subprocess.TimeoutExpired:
        child.kill()
    time.sleep(0.2)
    os.set_blocking(stderr_fd, True)
    received += child.stderr.read()
    stderr = received.decode(errors="replace")
    leftovers = children_of(os.getpid())
    for pid in leftovers:
        os.kill(pid, signal.SIGKILL)
    for _ in leftovers:
        os.waitpid(-1, 0)
    print(json.dumps({"seen": seen, "exit": child.returncode, "stderr": stderr, "left": leftovers}))


if __name__ == "__main__":
    main()
