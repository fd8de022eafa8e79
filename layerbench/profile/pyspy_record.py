"""Stack samples of a server's Python workers during a trial, taken by py-spy.

py-spy reads a running interpreter's stacks from outside (``process_vm_readv``), so the
measured server is neither restarted nor changed. Each worker process gets a ``py-spy record``
of its own (``--nonblocking``: the worker is never paused; ``--gil``: only the samples in which
it holds the GIL, that is runs Python code or C code called from it, not those in which it
waits for a request, the network or a lock), in raw collapsed-stack format with full file names
and one frame per function (``--function``). It starts once the warm-up is over and is stopped
(SIGINT, on which py-spy writes what it has) when the load ends, as the lab's own sampler is.

The workers are the server's Python processes that have no Python process below them: a
gunicorn's or uWSGI's workers, not their master; a single-process server itself.

py-spy needs to ptrace the workers: as root, or with ``kernel.yama.ptrace_scope`` at 0 and the
same user, or with ``CAP_SYS_PTRACE``. :func:`check_profiling` refuses before anything starts
when it could not.
"""

import contextlib
import os
import re
import shutil
import signal
import subprocess
import sys
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from layerbench.errors import ConfigError
from layerbench.extras import MissingExtraError
from layerbench.proc.process import ManagedProcess
from layerbench.proc.sessions import members
from layerbench.profile.collapsed_stacks import Stacks, merged, parse_collapsed

PY_SPY = "py-spy"
PROFILE_EXTRA = "profile"
DEFAULT_RATE_HZ = 100
# py-spy reads each worker's memory per sample: past this, its own cost swamps the server.
MAX_PROFILE_RATE_HZ = 1000
PTRACE_SCOPE = Path("/proc/sys/kernel/yama/ptrace_scope")
CAP_SYS_PTRACE = 19
# Sleeps for argv[1] seconds (the warm-up), then becomes the program of argv[2:].
DELAY_THEN_EXEC = (
    "import os, sys, time; time.sleep(float(sys.argv[1])); os.execv(sys.argv[2], sys.argv[2:])"
)
PYTHON_EXECUTABLE = re.compile(r"python[0-9.]*")


def find_py_spy() -> Path:
    """py-spy beside this interpreter (a virtual environment's bin/), else on PATH; refused
    in one line (the extra to install) when neither has it."""
    beside = Path(sys.executable).parent / PY_SPY
    if beside.is_file():
        return beside
    found = shutil.which(PY_SPY)
    if found is None:
        raise MissingExtraError("--profile (py-spy)", PROFILE_EXTRA)
    return Path(found)


def pyspy_version(binary: Path) -> str:
    """``py-spy 0.4.3``, as it says of itself."""
    done = subprocess.run(
        [str(binary), "--version"], capture_output=True, text=True, timeout=30, check=False
    )
    return done.stdout.strip() or PY_SPY


def _has_ptrace_capability() -> bool:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("CapEff:"):
            return bool(int(line.split()[1], 16) >> CAP_SYS_PTRACE & 1)
    return False


def ptrace_refusal() -> str | None:
    """Why py-spy could not attach to the servers layerbench starts; None when it can."""
    if os.geteuid() == 0 or _has_ptrace_capability():
        return None
    try:
        scope = int(PTRACE_SCOPE.read_text())
    except (OSError, ValueError):
        return None
    if scope == 0:
        return None
    return (
        f"--profile cannot attach py-spy to the server: kernel.yama.ptrace_scope is {scope} "
        "(only a parent may trace its child); run as root, or set it to 0 with "
        "'sysctl kernel.yama.ptrace_scope=0'"
    )


def check_profiling() -> Path:
    """py-spy's path, or the one-line refusal (exit 2) when it is missing or cannot attach."""
    binary = find_py_spy()
    refusal = ptrace_refusal()
    if refusal is not None:
        raise ConfigError(refusal)
    return binary


def _is_python(pid: int) -> bool:
    """Runs an interpreter: a ``python`` executable, or one that maps libpython (uWSGI,
    Apache with mod_wsgi)."""
    try:
        exe = os.path.basename(os.readlink(f"/proc/{pid}/exe"))
        if PYTHON_EXECUTABLE.fullmatch(exe):
            return True
        with open(f"/proc/{pid}/maps", "rb") as maps:
            return b"/libpython" in maps.read()
    except OSError:
        return False


def _parent(pid: int) -> int | None:
    try:
        with open(f"/proc/{pid}/stat", "rb") as stat:
            return int(stat.read().rsplit(b")", 1)[1].split()[1])
    except (OSError, IndexError, ValueError):
        return None


def python_workers(sessions: Iterable[int]) -> list[int]:
    """The Python processes of ``sessions`` with no Python process below them."""
    python = {pid for pid in members(set(sessions)) if _is_python(pid)}
    parents = {_parent(pid) for pid in python}
    return sorted(pid for pid in python if pid not in parents)


@dataclass
class PySpyRecorder:
    """Records one trial's workers (:meth:`start`, then :meth:`stop`)."""

    binary: Path
    workdir: Path
    rate_hz: int = DEFAULT_RATE_HZ
    # Where py-spy runs: the client's CPUs, off the server's.
    cpus: frozenset[int] | None = None
    _running: list[tuple[ManagedProcess, Path]] = field(default_factory=list, init=False)
    # The last trial's: its samples, and what each py-spy that ended by itself before it was
    # stopped said last (it could not attach, its worker died): its worker's are missing.
    stacks: Stacks = field(default_factory=dict, init=False)
    failures: list[str] = field(default_factory=list, init=False)

    def start(self, sessions: Iterable[int], delay_s: float, label: str) -> int:
        """Starts a py-spy per worker of ``sessions``, each sampling from ``delay_s`` on;
        returns how many."""
        self.stacks, self.failures = {}, []
        for pid in python_workers(sessions):
            output = self.workdir / f"profile-{label}-{pid}.txt"
            argv = [
                sys.executable,
                "-c",
                DELAY_THEN_EXEC,
                f"{delay_s:g}",
                str(self.binary),
                "record",
                "--pid",
                str(pid),
                "--nonblocking",
                "--gil",
                "--format",
                "raw",
                "--rate",
                str(self.rate_hz),
                "--full-filenames",
                "--function",
                "--output",
                str(output),
            ]
            log = self.workdir / f"profile-{label}-{pid}.log"
            process = ManagedProcess(
                PY_SPY, argv, log_path=log, cpus=self.cpus, stop_signal=signal.SIGINT
            )
            process.start()
            self._running.append((process, output))
        return len(self._running)

    def stop(self) -> Stacks:
        """Stops every py-spy (each writes its samples on SIGINT) and merges the workers'
        samples; a py-spy that wrote none (its worker gone, or stopped before its warm-up
        was over) adds nothing."""
        profiles: list[Stacks] = []
        for process, _ in self._running:
            if process.returncode() not in (None, 0):
                self.failures.append(process.log_tail(lines=1) or "py-spy failed")
        for process, _ in self._running:  # all at once: none samples longer than another
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGINT)
        try:
            for process, output in self._running:
                process.stop()
                if output.exists():
                    profiles.append(parse_collapsed(output.read_text(errors="replace")))
        finally:
            for process, _ in self._running:
                process.stop()
            self._running.clear()
        self.stacks = merged(profiles)
        return self.stacks
