"""``layerbench hosts up TOPOLOGY`` as the host tests run it: a subprocess in a session of its
own whose first lines are read with a time limit, ended by a Ctrl-C as a user would end it,
and killed with its whole group if the test fails before that."""

import os
import queue
import signal
import subprocess
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO

LAYERBENCH = [sys.executable, "-m", "layerbench.cli"]
STOP_LIMIT_S = 20


@contextmanager
def hosts_up(topology: Path) -> Iterator["subprocess.Popen[str]"]:
    """``hosts up`` on ``topology``, running until the block ends (SIGKILL to its group if it
    still runs then)."""
    with subprocess.Popen(
        [*LAYERBENCH, "hosts", "up", str(topology)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    ) as process:
        try:
            yield process
        finally:
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGKILL)
                process.communicate()


def first_lines(stream: IO[str] | None, count: int, timeout_s: float) -> list[list[str]]:
    """The first ``count`` lines of ``stream``, split; queue.Empty if they take too long."""
    assert stream is not None
    lines: queue.Queue[str] = queue.Queue()

    def read() -> None:
        for _ in range(count):
            lines.put(stream.readline())

    threading.Thread(target=read, daemon=True).start()
    return [lines.get(timeout=timeout_s).split() for _ in range(count)]


def interrupt(process: "subprocess.Popen[str]") -> str:
    """Ctrl-C to ``process``; what it wrote to stderr, once it has ended."""
    process.send_signal(signal.SIGINT)
    _, errors = process.communicate(timeout=STOP_LIMIT_S)
    return errors
