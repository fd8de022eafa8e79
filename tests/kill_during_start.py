"""Kill a command with SIGKILL some time after it says ``starting``, as a child subreaper, and
list what it left behind.

    python -m tests.kill_during_start DELAY_S SETTLE_S -- COMMAND...

Starts COMMAND with stdout piped, waits for its ``starting`` line, sleeps DELAY_S, sends it
SIGKILL (nothing of it runs after that: no handler, no cleanup), and then waits up to SETTLE_S
for its descendants to be gone. Being a subreaper, this process adopts every orphan of COMMAND,
so a leftover cannot hide by being re-parented to init or by leaving its session. Prints one
JSON line: whether the start had finished when the kill came, how long what it left took to
go, and every leftover (pid and
command line), which it then kills; or, when COMMAND says ``missing …`` instead, that line
(``failed`` when it exits without a word).
"""

import ctypes
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from tests.reaper import PR_SET_CHILD_SUBREAPER, children_of

WAIT_FOR_STARTING_S = 30.0


def reap_exited() -> None:
    """Collect our exited children (orphans we adopted included)."""
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return


def command_line(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode().strip()
    except OSError:
        return "?"


def main() -> None:
    delay_s, settle_s = float(sys.argv[1]), float(sys.argv[2])
    command = sys.argv[sys.argv.index("--") + 1 :]
    ctypes.CDLL(None).prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
    driver = subprocess.Popen(command, stdout=subprocess.PIPE)
    assert driver.stdout is not None
    deadline = time.monotonic() + WAIT_FOR_STARTING_S
    line = b""
    while line != b"starting\n" and time.monotonic() < deadline:
        line = driver.stdout.readline()
        if not line or line.startswith(b"missing"):
            driver.wait()
            said = line.decode().strip() or f"it exited with status {driver.returncode}"
            print(json.dumps({"missing" if line else "failed": said}))
            return
    time.sleep(delay_s)
    os.set_blocking(driver.stdout.fileno(), False)
    said = driver.stdout.read() or b""
    if driver.poll() is not None:
        print(json.dumps({"failed": f"it exited with status {driver.returncode} before the kill"}))
        return
    driver.kill()
    driver.wait()
    killed = time.monotonic()
    while True:
        reap_exited()
        left = children_of(os.getpid())
        if not left or time.monotonic() > killed + settle_s:
            break
        time.sleep(0.05)
    leftovers = {pid: command_line(pid) for pid in left}
    while left:  # kill what is left, and what it leaves in turn
        for pid in left:
            os.kill(pid, signal.SIGKILL)
        time.sleep(0.1)
        reap_exited()
        left = children_of(os.getpid())
    outcome = {"started": b"started" in said, "settled_s": time.monotonic() - killed}
    print(json.dumps({**outcome, "left": leftovers}))


if __name__ == "__main__":
    main()
