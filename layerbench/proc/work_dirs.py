"""Temporary work directories that say who owns them, and the sweep of those whose owner died.

A run removes its directories when it ends, however it ends, except by SIGKILL: then nothing of
it runs, and a database's directory (80 to 120 MB) would stay in /tmp. So each directory gets a
marker, ``.layerbench-owner``, naming its owner: the process's pid, its start time (from
``/proc/PID/stat``, so that a pid reused by another process is not taken for the owner) and
the boot it ran in. The next layerbench command removes every directory whose owner is dead,
and says so in one line.

The sweep is careful with /tmp, which everyone writes to: it looks only at ``layerbench-*``
entries that are real directories (not symbolic links) holding a marker that is a regular file
of ours (another account cannot make one); a directory without a marker, or with one it cannot
read, is kept. What a server kept outside its directory and recorded in it is released with it
(:mod:`~layerbench.proc.outside_resources`). Two commands may sweep at once (both started after
a kill): each holds a directory's marker locked (``flock``) while it removes the directory, and
the other passes it by; the marker goes last, so a sweep killed halfway leaves what is left
still marked.
"""

import fcntl
import os
import shutil
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

from layerbench.proc.outside_resources import release

PREFIX = "layerbench-"
MARKER = ".layerbench-owner"
BOOT_ID = Path("/proc/sys/kernel/random/boot_id")
MB = 1_000_000


def make_work_directory(prefix: str, parent: Path | None = None) -> Path:
    """A new directory ``prefix…`` in ``parent`` (the temporary directory by default), marked
    as ours. ``prefix`` must start with ``layerbench-``, the sweep's pattern."""
    if not prefix.startswith(PREFIX):
        raise ValueError(f"a work directory's prefix starts with {PREFIX!r}: {prefix!r}")
    path = Path(tempfile.mkdtemp(prefix=prefix, dir=parent))
    written = path / (MARKER + ".new")
    written.write_text(owner_record(os.getpid()) + "\n")
    written.rename(path / MARKER)  # whole or absent: never half a marker
    return path


@contextmanager
def work_directory(prefix: str) -> Iterator[Path]:
    """A temporary directory for a run's servers, removed afterwards (or, after a kill, by the
    next command's sweep). Traversable by all (servers that drop privileges reach their files
    below it), listable by us only."""
    path = make_work_directory(prefix)
    path.chmod(0o711)
    try:
        yield path
    finally:
        shutil.rmtree(path, ignore_errors=True)


def owner_record(pid: int) -> str:
    """``PID START_TIME BOOT_ID`` of a live process (empty once it has gone)."""
    start = start_time(pid)
    return "" if start is None else f"{pid} {start} {boot_id()}"


def start_time(pid: int) -> str | None:
    """When ``pid`` started, in clock ticks since boot (field 22 of /proc/PID/stat)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return stat.rsplit(")", 1)[1].split()[19]


def boot_id() -> str:
    return BOOT_ID.read_text().strip()


def owner_alive(record: str) -> bool:
    pid, _, _ = record.partition(" ")
    return pid.isdigit() and owner_record(int(pid)) == record


def abandoned(path: Path) -> bool:
    """Whether ``path`` is one of our work directories whose owner is dead."""
    marker = path / MARKER
    try:
        if path.is_symlink() or not path.is_dir():
            return False
        status = marker.lstat()
        if not marker.is_file() or marker.is_symlink() or status.st_uid != os.geteuid():
            return False
        record = marker.read_text().strip()
    except OSError:
        return False
    return len(record.split()) == 3 and not owner_alive(record)


def size_bytes(path: Path) -> int:
    total = 0
    for directory, _, files in os.walk(path):
        for name in files:
            try:
                total += os.lstat(os.path.join(directory, name)).st_size
            except OSError:
                continue
    return total


@contextmanager
def _locked_marker(path: Path) -> Iterator[bool]:
    """Whether ``path``'s marker is there and locked by us (not by another command's sweep,
    and not removed by one meanwhile), held until the block ends."""
    try:
        opened = os.open(path / MARKER, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError:
        yield False
        return
    try:
        try:
            fcntl.flock(opened, fcntl.LOCK_EX | fcntl.LOCK_NB)
            same = os.lstat(path / MARKER).st_ino == os.fstat(opened).st_ino
        except OSError:
            same = False
        yield same
    finally:
        os.close(opened)  # and the lock with it


def _remove_marker_last(path: Path) -> None:
    """``path`` removed, its marker after everything else in it."""
    try:
        entries = list(os.scandir(path))
    except OSError:
        return
    for entry in entries:
        if entry.name == MARKER:
            continue
        if entry.is_dir(follow_symlinks=False):
            shutil.rmtree(entry.path, ignore_errors=True)
        else:
            with suppress(OSError):
                os.unlink(entry.path)
    with suppress(OSError):
        os.unlink(path / MARKER)
    shutil.rmtree(path, ignore_errors=True)  # what came meanwhile (a server still writing)


def sweep_abandoned(parent: Path | None = None) -> list[Path]:
    """Remove the work directories in ``parent`` (the temporary directory by default) whose
    owner is dead; say so on stderr in one line. Returns what it removed."""
    parent = Path(tempfile.gettempdir()) if parent is None else parent
    try:
        candidates = sorted(parent.glob(PREFIX + "*"))
    except OSError:
        return []
    removed: list[Path] = []
    freed = 0
    for path in candidates:
        with _locked_marker(path) as locked:
            if locked and abandoned(path):
                freed += size_bytes(path)
                release(path)  # what its servers kept outside it (a SysV segment)
                _remove_marker_last(path)
                if not path.exists():
                    removed.append(path)
    if removed:
        count = "1 work directory" if len(removed) == 1 else f"{len(removed)} work directories"
        print(
            f"layerbench: removed {count} left in {parent} by runs that were killed "
            f"({freed / MB:.0f} MB)",
            file=sys.stderr,
        )
    return removed
