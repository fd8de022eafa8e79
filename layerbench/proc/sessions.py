"""Processes that leave their parent's process group for a session of their own (Passenger's
watchdog does, and its core and application processes with it): found below the process that
started them while it runs, and ended once it has gone, so that a stop leaves nothing."""

import contextlib
import os
import signal
import time

POLL_S = 0.05
KILLED_WAIT_S = 5.0


def _stat(pid: int) -> tuple[int, int, str] | None:
    """(ppid, session, state) of ``pid``; None once it has gone."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as stat:
            fields = stat.read().rsplit(b")", 1)[1].split()
    except (OSError, IndexError):
        return None
    return int(fields[1]), int(fields[3]), fields[0].decode()


def _live() -> dict[int, tuple[int, int]]:
    """Every live process (zombies excluded): pid → (ppid, session)."""
    found = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit() and (stat := _stat(int(entry))) is not None:
            ppid, session, state = stat
            if state not in ("Z", "X"):
                found[int(entry)] = (ppid, session)
    return found


def sessions_below(leader: int) -> set[int]:
    """The sessions, other than ``leader``'s own, of the processes descended from it."""
    live = _live()
    own = live.get(leader, (0, leader))[1]
    below: set[int] = set()
    frontier = {leader}
    while frontier:
        frontier = {pid for pid, (ppid, _) in live.items() if ppid in frontier} - below
        below |= frontier
    return {live[pid][1] for pid in below} - {own}


def members(sessions: set[int]) -> list[int]:
    return [pid for pid, (_, session) in _live().items() if session in sessions]


def end_sessions(sessions: set[int], grace_s: float) -> None:
    """Let the processes of ``sessions`` leave by themselves for ``grace_s``, then SIGKILL
    what is left of them (and what they start meanwhile) until none is left, or KILLED_WAIT_S
    has passed (a process in uninterruptible sleep)."""
    deadline = time.monotonic() + grace_s
    while members(sessions) and time.monotonic() < deadline:
        time.sleep(POLL_S)
    deadline = time.monotonic() + KILLED_WAIT_S
    while (left := members(sessions)) and time.monotonic() < deadline:
        for pid in left:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        time.sleep(POLL_S)
