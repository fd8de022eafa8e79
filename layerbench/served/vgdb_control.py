"""Telling processes that run under callgrind what to do, through valgrind's gdbserver
(``vgdb --pid=PID COMMAND``, what callgrind_control runs): switch instrumentation on, zero the
counts, dump them. All the processes are told at once, each through its own FIFOs
(``--vgdb-prefix``, in the run's directory: never another user's valgrind in /tmp).

vgdb runs as the account of the process it tells: root may not open another account's FIFO in a
directory every account writes to (the kernel's protected_fifos), and the directory is one
because a server's processes may run as several."""

import os
import subprocess
from pathlib import Path

from layerbench.errors import LayerbenchError
from layerbench.proc.binaries import find_program
from layerbench.proc.process import ManagedProcess

# vgdb waits for a process to act on a command (it wakes one blocked in a system call with
# ptrace): past this, the process is stuck.
COMMAND_TIMEOUT_S = 120.0


class Vgdb:
    def __init__(self, prefix: Path) -> None:
        self.prefix = prefix
        self.binary = find_program("vgdb", "valgrind")

    def tell(self, pids: list[int], command: str) -> None:
        """Send ``command`` (``zero``, ``dump LABEL``, ``instrumentation on``) to every process
        of ``pids``; an error naming those that did not act on it."""
        logs = self.prefix.parent / "vgdb-logs"
        logs.mkdir(exist_ok=True)
        running = {}
        for pid in pids:
            argv = [
                *_as_owner_of(pid),
                str(self.binary),
                f"--vgdb-prefix={self.prefix}",
                f"--pid={pid}",
            ]
            log = logs / f"{pid}.log"
            log.unlink(missing_ok=True)
            running[pid] = ManagedProcess("vgdb", [*argv, *command.split()], log_path=log).start()
        failed = []
        try:
            for pid, process in running.items():
                try:
                    returncode = process.wait(COMMAND_TIMEOUT_S)
                except subprocess.TimeoutExpired:
                    returncode = None
                if returncode != 0:
                    failed.append(f"{pid}: {process.log_tail(lines=2).strip()[-200:]}")
        finally:
            for process in running.values():
                process.stop()
        if failed:
            raise LayerbenchError(f"vgdb could not {command} in " + "; ".join(failed))


def _as_owner_of(pid: int) -> list[str]:
    """The prefix that runs a command as the account ``pid`` runs as (none when it is ours)."""
    try:
        owner = os.stat(f"/proc/{pid}")
    except OSError:
        return []  # gone: vgdb says so
    if owner.st_uid == os.geteuid():
        return []
    setpriv = find_program("setpriv", "util-linux")
    return [str(setpriv), f"--reuid={owner.st_uid}", f"--regid={owner.st_gid}", "--clear-groups"]
