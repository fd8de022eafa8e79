"""System calls counted (not timed) by strace: ``strace -f -c`` attached to a set of processes
(every thread of each, and whatever they fork) for a window, its summary read back: calls by
name. One strace per role, so that each role's calls are its own."""

import re
import time
from pathlib import Path

from layerbench.errors import LayerbenchError
from layerbench.proc.binaries import find_program
from layerbench.proc.process import ManagedProcess

ATTACH_TIMEOUT_S = 30.0
# strace detaches from every thread, writes its summary and exits on SIGTERM.
DETACH_GRACE_S = 60.0
POLL_S = 0.05
_ATTACHED = re.compile(r"^\S*strace: Process (\d+) attached", re.MULTILINE)
_RULE = re.compile(r"^-+( -+)+$")
# Calls whose number depends on timing, not on the request: threads waiting for one another (the
# GIL handed over) call futex more or less often from run to run.
TIMING_CALLS = frozenset({"futex"})


def parse_summary(text: str) -> dict[str, int]:
    """The calls of each system call in ``strace -c``'s summary table (its ``total`` line left
    out): the rows between its two rules, their calls column and their name."""
    calls: dict[str, int] = {}
    inside = False
    for line in text.splitlines():
        if _RULE.match(line.strip()):
            if inside:
                break
            inside = True
            continue
        fields = line.split()
        if inside and len(fields) >= 5:
            calls[fields[-1]] = int(fields[3])
    return calls


class SyscallCounter:
    """strace attached to ``pids`` from :meth:`start` to :meth:`stop`."""

    def __init__(self, pids: list[int], directory: Path, label: str) -> None:
        self.pids = pids
        self.summary_path = directory / f"strace-{label}.txt"
        self.log_path = directory / f"strace-{label}.log"
        self._process: ManagedProcess | None = None

    def start(self) -> None:
        """Attach, and return once every process is attached."""
        strace = find_program("strace", "strace")
        argv = [str(strace), "-f", "-c", "-o", str(self.summary_path)]
        for pid in self.pids:
            argv += ["-p", str(pid)]
        self.log_path.unlink(missing_ok=True)
        process = self._process = ManagedProcess("strace", argv, log_path=self.log_path)
        process.start()
        deadline = time.monotonic() + ATTACH_TIMEOUT_S
        while len(set(_ATTACHED.findall(self._log()))) < len(self.pids):
            if process.returncode() is not None or time.monotonic() > deadline:
                process.stop()
                self._process = None
                raise LayerbenchError(f"strace did not attach to {self.pids}: {self._log()[-300:]}")
            time.sleep(POLL_S)

    def stop(self) -> dict[str, int]:
        """Detach; the calls counted meanwhile, by name."""
        process = self._process
        if process is None:
            raise RuntimeError("strace was not started")
        process.stop(grace_s=DETACH_GRACE_S)
        self._process = None
        if not self.summary_path.exists():
            raise LayerbenchError(f"strace wrote no summary: {self._log()[-300:]}")
        return parse_summary(self.summary_path.read_text())

    def _log(self) -> str:
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""
