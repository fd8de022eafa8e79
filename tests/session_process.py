"""A command the tests run until they interrupt it (``hosts up``, ``services up``, ``app
serve``): a subprocess in a session of its own, its output piped as text, its first lines read
with a time limit, ended by a Ctrl-C as a user would end it, and killed with its whole group if
the test fails before that."""

import os
import queue
import signal
import subprocess
import threading
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import IO


@contextmanager
def in_own_session(
    argv: list[str], *, cwd: Path | None = None, env: Mapping[str, str] | None = None
) -> Iterator["subprocess.Popen[str]"]:
    """``argv`` running until the block ends (SIGKILL to its group if it still runs then)."""
    with subprocess.Popen(
        argv,
        cwd=cwd,
        env=env,
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


def interrupt(process: "subprocess.Popen[str]", timeout_s: float = 20) -> str:
    """Ctrl-C to ``process``; what it wrote to stderr, once it has ended."""
    process.send_signal(signal.SIGINT)
    _, errors = process.communicate(timeout=timeout_s)
    return errors
