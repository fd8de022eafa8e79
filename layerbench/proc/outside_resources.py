"""What a server keeps outside its work directory, recorded in that directory so that it is
released with it: by the server's orderly stop, or by the sweep of a killed run's directories
(:mod:`~layerbench.proc.work_dirs`).

One kind so far: a System V shared-memory segment. PostgreSQL keeps one (56 bytes) however its
shared memory is configured: it tells a second postmaster that the data directory is in use.
A postmaster that exits in order removes it; one killed with SIGKILL leaves it, attached by no
one, for ever. Its key and id are in the data directory's ``postmaster.pid``; the service
records them here once it is up.

A record is ``.layerbench-outside`` in the directory, a regular file of our account, one line
a resource: ``sysv-shm KEY ID``. A segment is removed only while it still has that key and that
id and no process attaches it: a live server's, or one the kernel has since given to someone
else, is left alone.
"""

import ctypes
import os
import time
from pathlib import Path

RECORD = ".layerbench-outside"
SYSV_SHM = "sysv-shm"
SEGMENTS = Path("/proc/sysvipc/shm")
IPC_RMID = 0
# A killed postmaster's backends notice its death and detach within moments.
DETACH_WAIT_S = 5.0


def record_sysv_segment(directory: Path, key: int, shmid: int) -> None:
    """Records the System V segment ``key``/``shmid`` as ``directory``'s to release."""
    with (directory / RECORD).open("a") as record:
        record.write(f"{SYSV_SHM} {key} {shmid}\n")


def recorded(directory: Path) -> list[tuple[int, int]]:
    """The segments (key, id) recorded in ``directory``; none unless the record is a regular
    file of ours."""
    path = directory / RECORD
    try:
        status = path.lstat()
        if not path.is_file() or path.is_symlink() or status.st_uid != os.geteuid():
            return []
        lines = path.read_text().splitlines()
    except OSError:
        return []
    found = []
    for line in lines:
        kind, _, rest = line.partition(" ")
        numbers = rest.split()
        if kind == SYSV_SHM and len(numbers) == 2 and all(n.isdigit() for n in numbers):
            found.append((int(numbers[0]), int(numbers[1])))
    return found


def sysv_segments() -> dict[int, tuple[int, int]]:
    """Every System V shared-memory segment: its id → (its key, how many attach it)."""
    try:
        lines = SEGMENTS.read_text().splitlines()[1:]
    except OSError:
        return {}
    found = {}
    for line in lines:
        fields = line.split()
        if len(fields) >= 7:
            # key shmid perms size cpid lpid nattch …; the key as a signed decimal.
            found[int(fields[1])] = (int(fields[0]) & 0xFFFFFFFF, int(fields[6]))
    return found


def release(directory: Path, wait_s: float = 0.0) -> list[int]:
    """Removes the segments recorded in ``directory`` that still have their key and id and
    that no process attaches (waiting up to ``wait_s`` for the last to detach). The ids
    removed."""
    wanted = recorded(directory)
    removed: list[int] = []
    deadline = time.monotonic() + wait_s
    while wanted:
        present = sysv_segments()
        waiting = []
        for key, shmid in wanted:
            seen = present.get(shmid)
            if seen is None or seen[0] != key & 0xFFFFFFFF:
                continue  # gone already (removed in order), or another's now
            if seen[1] > 0:
                waiting.append((key, shmid))
            elif _remove_segment(shmid):
                removed.append(shmid)
        if not waiting or time.monotonic() >= deadline:
            break
        wanted = waiting
        time.sleep(0.05)
    return removed


def _remove_segment(shmid: int) -> bool:
    libc = ctypes.CDLL(None, use_errno=True)
    return int(libc.shmctl(ctypes.c_int(shmid), ctypes.c_int(IPC_RMID), None)) == 0
