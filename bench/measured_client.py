"""Run one load client to completion, pinned, and read what the kernel accounted to it."""

import os
import signal
import subprocess
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Measured:
    output: str
    exit_code: int
    cpu_s: float
    max_rss_kib: int


def run_measured(argv: list[str], cpus: frozenset[int], timeout_s: float) -> Measured:
    """Runs ``argv`` in its own process group on ``cpus`` and waits for it with wait4: its
    stdout and stderr together, exit code, CPU seconds (user + system) and peak resident
    memory. Past ``timeout_s``, or on Ctrl-C, its whole group is killed.

    The peak memory is the process's own high-water mark (VmHWM), read every 50 ms while it
    runs: wait4's ru_maxrss would be no use, as Linux carries it across fork and exec, so a
    small client started from this Python process reports Python's size."""
    with tempfile.TemporaryFile(mode="w+") as log:
        pinned = ["taskset", "-c", ",".join(map(str, sorted(cpus))), *argv]
        process = subprocess.Popen(
            pinned,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        deadline = time.monotonic() + timeout_s
        peak_kib = 0
        try:
            while True:
                peak_kib = max(peak_kib, high_water_kib(process.pid))
                pid, status, usage = os.wait4(process.pid, os.WNOHANG)
                if pid:
                    break
                if time.monotonic() > deadline:
                    raise TimeoutError(f"{argv[0]} did not finish within {timeout_s:.0f} s")
                time.sleep(0.05)
        except BaseException:
            os.killpg(process.pid, signal.SIGKILL)
            os.waitpid(process.pid, 0)
            process.returncode = -signal.SIGKILL
            raise
        process.returncode = os.waitstatus_to_exitcode(status)
        log.seek(0)
        return Measured(log.read(), process.returncode, usage.ru_utime + usage.ru_stime, peak_kib)


def high_water_kib(pid: int) -> int:
    """The process's peak resident memory so far, or 0 once it has exited."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return 0
    for line in status.splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1])
    return 0
