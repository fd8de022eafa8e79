"""The watchdog that ends a child's process group once layerbench is gone, however it went
(``kill -9`` included).

    python -I -S watchdog.py SIGNAL GRACE_S        stdin: the read end of a pipe

Why a process of its own. Nothing runs in layerbench after a SIGKILL, and what the kernel
offers in its place is not enough: ``PR_SET_PDEATHSIG`` signals only the direct child, once,
and a server may lose that one signal (uWSGI ignores every signal while its master loads the
application: killed then, it lived on and kept its port) or leave workers behind. So each child
layerbench starts (:class:`~layerbench.proc.process.ManagedProcess`) gets this watchdog,
started just before it in a session of its own (a terminal's Ctrl-C and hang-up reach
layerbench, which stops its children itself). It holds the read end of a pipe whose write end
only layerbench holds, and ends the child's group when that pipe reaches end of file, which
the kernel guarantees when the last holder of the write end dies, by any signal.

No window is left open: the child writes its pid (its group's) into the pipe itself, between
its fork and its exec, while it still holds an inherited copy of the write end (closed by
exec: the descriptor is close-on-exec). Whenever layerbench dies, the watchdog either has the
group or reads end of file only after the child's exec, having read the pid first.

Ending the group is what :meth:`ManagedProcess.stop` does too (:func:`end_group`): the
program's stop signal, repeated while it lasts (a signal uWSGI ignored during its start is
heard once it has started), and SIGKILL for whatever is left after the grace. Zombies do not
count as left: a container's init may never reap them.

Lines on stdin:

    PID     the child's pid, from the child (the group to end)
    stop    layerbench has ended the group itself: exit, signalling nothing
    (EOF)   layerbench is gone: end the group, then exit

It runs with ``-I -S`` and imports only the standard library, so it starts in milliseconds and
depends on nothing layerbench's environment might break.
"""

import contextlib
import os
import signal
import sys
import time

RESEND_S = 0.5
POLL_S = 0.05
KILLED_WAIT_S = 5.0
STOP_WORD = b"stop"


def live_members(group: int) -> list[int]:
    """The processes of process group ``group`` that have not exited (zombies excluded)."""
    members = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as stat:
                fields = stat.read().rsplit(b")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if int(fields[2]) == group and fields[0] not in (b"Z", b"X"):
            members.append(int(entry))
    return members


def end_group(group: int, signum: int, grace_s: float) -> None:
    """Send ``signum`` to the group, again every RESEND_S while any member lives, and SIGKILL
    to what is left after ``grace_s``; return once no member lives (or KILLED_WAIT_S after the
    SIGKILL: a process in uninterruptible sleep)."""
    deadline = time.monotonic() + grace_s
    next_signal = 0.0
    while live_members(group) and time.monotonic() < deadline:
        if time.monotonic() >= next_signal:
            _signal_group(group, signum)
            next_signal = time.monotonic() + RESEND_S
        time.sleep(POLL_S)
    deadline = time.monotonic() + KILLED_WAIT_S
    while live_members(group) and time.monotonic() < deadline:
        _signal_group(group, signal.SIGKILL)
        time.sleep(POLL_S)


def _signal_group(group: int, signum: int) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.killpg(group, signum)


def watch(signum: int, grace_s: float) -> None:
    group: int | None = None
    for line in sys.stdin.buffer:
        word = line.strip()
        if word == STOP_WORD:
            return
        group = int(word)
    if group is not None:
        end_group(group, signum, grace_s)


if __name__ == "__main__":
    watch(int(sys.argv[1]), float(sys.argv[2]))
